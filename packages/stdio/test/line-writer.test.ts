import { LineWriter } from '../src/line-writer.js';
import { RecordingOutput } from './support/in-process-stdio.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('LineWriter', () => {
  test('the lines of one burst (a callback and the promise jobs it starts) leave in one write, in order', async () => {
    const output = new RecordingOutput();
    const writer = new LineWriter(output);
    writer.write('one');
    writer.write('two');
    await Promise.resolve();
    await Promise.resolve();
    writer.write('three');
    expect(output.chunks).toEqual([]);
    await nextTurn();
    expect(output.chunks).toEqual(['one\ntwo\nthree\n']);
    writer.write('four');
    await nextTurn();
    expect(output.chunks).toEqual(['one\ntwo\nthree\n', 'four\n']);
  });

  test('a queue past 64 KiB is written at once, behind what was queued before it; a line past 64 KiB goes alone', () => {
    const output = new RecordingOutput();
    const writer = new LineWriter(output);
    const big = 'x'.repeat(70_000);
    writer.write('small');
    writer.write(big);
    expect(output.chunks).toEqual(['small\n', `${big}\n`]);
  });

  test('past its bound of pending output it signals pressure, and clears it once the stream has drained', async () => {
    const output = new RecordingOutput(5, 1);
    const signals: boolean[] = [];
    const writer = new LineWriter(output, 100, (pressured) => signals.push(pressured));
    for (let i = 0; i < 30; i++) writer.write(`line ${i}`);
    expect(signals).toEqual([true]);
    expect(writer.pending).toBeGreaterThan(100);
    while (signals.length < 2) await new Promise((resolve) => output.once('drain', resolve));
    expect(signals).toEqual([true, false]);
    await nextTurn();
    expect(output.chunks.join('')).toBe(Array.from({ length: 30 }, (_, i) => `line ${i}\n`).join(''));
  });

  test('while the stream asks to wait, lines queue and leave together once it drains', async () => {
    // The stream acknowledges nothing until unstalled: no timer decides whether it drains in time.
    const output = new RecordingOutput(0, 1);
    output.stall();
    const writer = new LineWriter(output);
    writer.write('a');
    await nextTurn();
    expect(output.writableNeedDrain).toBe(true);
    writer.write('b');
    await nextTurn();
    writer.write('c');
    await nextTurn();
    expect(output.chunks).toEqual(['a\n']);
    const drained = new Promise((resolve) => output.once('drain', resolve));
    output.unstall();
    await drained;
    expect(output.chunks).toEqual(['a\n', 'b\nc\n']);
  });

  test('flushAll writes even into a stream that asked to wait, and calls back once it is all taken', async () => {
    // Stalled, not slowed by a timer: with a 5 ms acknowledgement, a loaded CI machine reached the
    // check after the stream had drained, and the test failed on a writer that was right.
    const output = new RecordingOutput(0, 1);
    output.stall();
    const writer = new LineWriter(output);
    writer.write('a');
    await nextTurn();
    writer.write('b');
    expect(output.writableNeedDrain).toBe(true);
    const taken = new Promise((resolve) => writer.flushAll(() => resolve({ text: output.chunks.join(''), pending: output.writableLength })));
    // "b" is in the stream's buffer behind "a", nothing is left queued in the writer.
    expect(output.writableLength).toBe(4);
    expect(writer.pending).toBe(4);
    output.unstall();
    expect(await taken).toEqual({ text: 'a\nb\n', pending: 0 });
  });
});
