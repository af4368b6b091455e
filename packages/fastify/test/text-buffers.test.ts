import { TextBuffers } from '../src/text-buffers.js';

describe('TextBuffers', () => {
  test('copies a text into a buffer of its power-of-two size class (8 KiB at least), and reuses one given back', () => {
    const buffers = new TextBuffers();
    const first = buffers.take('a'.repeat(9000))!;
    expect(first.length).toBe(16 * 1024);
    expect(first.toString('latin1', 0, 9000)).toBe('a'.repeat(9000));
    expect(buffers.take('b'.repeat(100))!.length).toBe(8 * 1024);
    // Not given back yet: another text of the class gets a buffer of its own.
    const second = buffers.take('c'.repeat(16 * 1024))!;
    expect(second).not.toBe(first);
    buffers.give(first);
    const third = buffers.take('d'.repeat(10_000))!;
    expect(third).toBe(first);
    expect(third.toString('latin1', 0, 10_000)).toBe('d'.repeat(10_000));
  });

  test('a text over the pooled size gets none; free buffers over the bound are left to the garbage collector', () => {
    const buffers = new TextBuffers(64 * 1024, 128 * 1024);
    expect(buffers.take('x'.repeat(64 * 1024 + 1))).toBeUndefined();
    const taken = [1, 2, 3].map(() => buffers.take('y'.repeat(64 * 1024))!);
    for (const buffer of taken) buffers.give(buffer);
    const again = [1, 2, 3].map(() => buffers.take('z'.repeat(64 * 1024))!);
    // Two were kept (128 KiB) and are used again; the third is new.
    expect(again.filter((buffer) => taken.includes(buffer))).toHaveLength(2);
  });
});
