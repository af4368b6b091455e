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

  test('many requests coming and going (finished entries emptied, then swept) leave exactly those in flight', () => {
    const inFlight = new InFlight<string>();
    const live = new Map<string | number | bigint, string>();
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    // Ids of all three kinds, most of them fresh, a few reused once finished; up to ~80 in flight.
    for (let i = 0; i < 20_000; i++) {
      if (live.size > 0 && (live.size > 80 || next() % 2 === 0)) {
        const keys = [...live.keys()];
        const id = keys[next() % keys.length]!;
        inFlight.delete(id);
        live.delete(id);
        expect(inFlight.has(id)).toBe(false);
      } else {
        const kind = next() % 3;
        const n = next() % 50 === 0 ? next() % 100 : 1000 + i;
        const id = kind === 0 ? `r${n}` : kind === 1 ? n : BigInt(n) + 2n ** 60n;
        if (live.has(id)) continue;
        expect(inFlight.has(id)).toBe(false);
        inFlight.set(id, `v${i}`);
        live.set(id, `v${i}`);
      }
      expect(inFlight.size).toBe(live.size);
    }
    for (const [id, value] of live) expect(inFlight.get(id)).toBe(value);
    expect(new Map(inFlight.entries())).toEqual(live);
    expect(inFlight.drain().sort()).toEqual([...live.values()].sort());
    expect(inFlight.size).toBe(0);
  });

  test('deleting an id that is not in flight, or twice, changes nothing', () => {
    const inFlight = new InFlight<string>();
    inFlight.set(1, 'one');
    inFlight.delete(2);
    inFlight.delete(1);
    inFlight.delete(1);
    expect([inFlight.size, inFlight.has(1), inFlight.entries()]).toEqual([0, false, []]);
    inFlight.set(1, 'again');
    expect([inFlight.size, inFlight.get(1)]).toEqual([1, 'again']);
  });
});
