import { RunningRequests } from '../src/running-requests.js';

/** The keys still in the list, as `takeAll` hands them over. */
function keysOf(list: RunningRequests<string, number>): string[] {
  return list.takeAll().map((entry) => entry.key);
}

describe('the running requests of an endpoint (a linked list the requests keep their entries of)', () => {
  test('a request removed from the front, the middle or the end leaves the others, each with its answer', () => {
    for (const gone of ['a', 'b', 'c']) {
      const list = new RunningRequests<string, number>();
      const entries = new Map(['a', 'b', 'c'].map((key, i) => [key, list.add(key, i)]));
      expect(list.remove(entries.get(gone)!)).toBe(true);
      const rest = list.takeAll();
      expect(rest.map((entry) => entry.key).sort()).toEqual(['a', 'b', 'c'].filter((key) => key !== gone));
      for (const entry of rest) expect(entry.answer).toBe(['a', 'b', 'c'].indexOf(entry.key));
    }
  });

  test('removing twice, or after takeAll answered it at shutdown, says false and changes nothing', () => {
    const list = new RunningRequests<string, number>();
    const a = list.add('a', 1);
    const b = list.add('b', 2);
    expect(list.remove(a)).toBe(true);
    expect(list.remove(a)).toBe(false);
    const c = list.add('c', 3);
    expect(list.takeAll().map((entry) => entry.key)).toEqual(['c', 'b']);
    // A request answered at shutdown finishes later: its own removal must not touch the new list.
    const d = list.add('d', 4);
    expect(list.remove(b)).toBe(false);
    expect(list.remove(c)).toBe(false);
    expect(keysOf(list)).toEqual(['d']);
    expect(list.remove(d)).toBe(false);
    expect(keysOf(list)).toEqual([]);
  });

  test('many requests coming and going in any order leave exactly those still running', () => {
    const list = new RunningRequests<string, number>();
    const live = new Map<string, ReturnType<typeof list.add>>();
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 5000; i++) {
      if (live.size > 0 && next() % 3 === 0) {
        const keys = [...live.keys()];
        const key = keys[next() % keys.length]!;
        expect(list.remove(live.get(key)!)).toBe(true);
        live.delete(key);
      } else {
        live.set(`r${i}`, list.add(`r${i}`, i));
      }
    }
    expect(keysOf(list).sort()).toEqual([...live.keys()].sort());
  });
});
