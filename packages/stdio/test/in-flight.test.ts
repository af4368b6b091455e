import { InFlight } from '../src/in-flight.js';

describe('InFlight', () => {
  test('"1" and 1 are different requests', () => {
    const inFlight = new InFlight<string>();
    inFlight.set('1', 'string one');
    expect(inFlight.has(1)).toBe(false);
    inFlight.set(1, 'number one');
    expect([inFlight.get('1'), inFlight.get(1), inFlight.size]).toEqual(['string one', 'number one', 2]);
    inFlight.delete(1);
    expect([inFlight.get('1'), inFlight.get(1), inFlight.size]).toEqual(['string one', undefined, 1]);
  });

  test('drain hands back every entry and leaves none', () => {
    const inFlight = new InFlight<string>();
    inFlight.set('a', 'A');
    inFlight.set(7, 'seven');
    expect(inFlight.drain().sort()).toEqual(['A', 'seven']);
    expect([inFlight.size, inFlight.has('a'), inFlight.has(7)]).toEqual([0, false, false]);
  });
});
