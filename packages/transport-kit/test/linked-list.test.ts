import { LinkedList, ListEntry } from '../src/linked-list.js';

/** An entry with a name, as the lists' users (running requests, step watches) add their own fields. */
class Named extends ListEntry<Named> {
  constructor(readonly name: string) {
    super();
  }
}

/** The names still in the list, as `takeAll` hands them over. */
function namesOf(list: LinkedList<Named>): string[] {
  return list.takeAll().map((entry) => entry.name);
}

describe('a linked list running through its entries', () => {
  test('an entry removed from the front, the middle or the end leaves the others, in order', () => {
    for (const gone of ['a', 'b', 'c']) {
      const list = new LinkedList<Named>();
      const entries = new Map(['a', 'b', 'c'].map((name) => [name, list.add(new Named(name))]));
      expect(list.remove(entries.get(gone)!)).toBe(true);
      expect(list.size).toBe(2);
      expect(namesOf(list)).toEqual(['c', 'b', 'a'].filter((name) => name !== gone));
      expect(list.size).toBe(0);
    }
  });

  test('removing twice, or after takeAll took it, says false and changes nothing', () => {
    const list = new LinkedList<Named>();
    const a = list.add(new Named('a'));
    const b = list.add(new Named('b'));
    expect(list.remove(a)).toBe(true);
    expect(list.remove(a)).toBe(false);
    const c = list.add(new Named('c'));
    expect(list.takeAll().map((entry) => entry.name)).toEqual(['c', 'b']);
    // A request answered at shutdown finishes later: its own removal must not touch the new list.
    const d = list.add(new Named('d'));
    expect(list.remove(b)).toBe(false);
    expect(list.remove(c)).toBe(false);
    expect(list.size).toBe(1);
    expect(namesOf(list)).toEqual(['d']);
    expect(list.remove(d)).toBe(false);
    expect(namesOf(list)).toEqual([]);
  });

  test('an entry taken out can be added again, to the same list or another', () => {
    const one = new LinkedList<Named>();
    const other = new LinkedList<Named>();
    const a = one.add(new Named('a'));
    one.add(new Named('b'));
    one.remove(a);
    other.add(a);
    expect(namesOf(one)).toEqual(['b']);
    expect(namesOf(other)).toEqual(['a']);
  });

  test('many entries coming and going in any order leave exactly those still listed, counted', () => {
    const list = new LinkedList<Named>();
    const live = new Map<string, Named>();
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 5000; i++) {
      if (live.size > 0 && next() % 3 === 0) {
        const names = [...live.keys()];
        const name = names[next() % names.length]!;
        expect(list.remove(live.get(name)!)).toBe(true);
        live.delete(name);
      } else {
        live.set(`r${i}`, list.add(new Named(`r${i}`)));
      }
    }
    expect(list.size).toBe(live.size);
    const walked: string[] = [];
    for (let entry = list.first; entry; entry = entry.next) walked.push(entry.name);
    expect(walked.sort()).toEqual([...live.keys()].sort());
    expect(namesOf(list).sort()).toEqual([...live.keys()].sort());
  });
});
