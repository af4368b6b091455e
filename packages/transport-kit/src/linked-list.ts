/**
 * What an entry of a {@link LinkedList} carries: its links. An entry's class extends this, so the
 * list allocates nothing of its own and a removal needs no lookup.
 */
export class ListEntry<T extends ListEntry<T>> {
  /** True from {@link LinkedList.add} until the entry is removed or taken: removing it again does nothing. */
  listed = false;
  /** The entry added after this one (nearer the list's start); set by the list only. */
  previous: T | undefined = undefined;
  /** The entry added before this one; set by the list only. */
  next: T | undefined = undefined;
}

/**
 * A doubly linked list running through its entries, for what requests enter and leave at the
 * rate they arrive (the requests a transport must answer at shutdown, the guards and middleware a
 * step timer watches). Adding and removing one is a few stores, with no hash and no table: a `Map`
 * or `Set` doing the same job is rehashed and reallocated as it grows and shrinks with each burst
 * of requests (docs/perf-notes.md, "Figures behind source comments").
 */
export class LinkedList<T extends ListEntry<T>> {
  private head: T | undefined;
  private count = 0;

  /** How many entries are in the list. */
  get size(): number {
    return this.count;
  }

  /** The most recently added entry (follow `next` from it for the others); `undefined` when empty. */
  get first(): T | undefined {
    return this.head;
  }

  /** Adds an entry at the start of the list and returns it; keep it to remove it later. */
  add(entry: T): T {
    entry.listed = true;
    entry.previous = undefined;
    entry.next = this.head;
    if (this.head) this.head.previous = entry;
    this.head = entry;
    this.count++;
    return entry;
  }

  /** Removes an entry; true if it was in the list (false: already removed, or taken by {@link takeAll}). */
  remove(entry: T): boolean {
    if (!entry.listed) return false;
    entry.listed = false;
    if (entry.previous) entry.previous.next = entry.next;
    else this.head = entry.next;
    if (entry.next) entry.next.previous = entry.previous;
    entry.previous = entry.next = undefined;
    this.count--;
    return true;
  }

  /** Takes every entry out of the list and returns them, the most recently added first. */
  takeAll(): T[] {
    const all: T[] = [];
    for (let entry = this.head; entry; entry = entry.next) all.push(entry);
    for (const entry of all) {
      entry.listed = false;
      entry.previous = entry.next = undefined;
    }
    this.head = undefined;
    this.count = 0;
    return all;
  }
}
