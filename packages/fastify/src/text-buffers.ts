/**
 * Buffers for the long ASCII texts of answers written straight to the socket (direct-answer.ts),
 * used again once their response has finished.
 *
 * Why: written as a string, a 64 KiB text is copied by Node into memory it allocates for the write
 * and frees when the write is done; allocations of that size freed in bursts make the C allocator
 * give the memory back to the system and fault it in again, which costs more system time than the
 * text's copy (docs/perf-notes.md, "Figures behind source comments"). A buffer kept here is copied into (`latin1`, a memcpy) and handed to the socket as it is.
 */
export class TextBuffers {
  /** Free buffers by size (powers of two). */
  private readonly free = new Map<number, Buffer[]>();
  private freeBytes = 0;

  /**
   * @param maxTextBytes texts longer than this are not pooled (`take` answers `undefined`).
   * @param maxFreeBytes the most memory kept in free buffers; more is left to the garbage collector.
   */
  constructor(
    private readonly maxTextBytes = 1024 * 1024,
    private readonly maxFreeBytes = 8 * 1024 * 1024,
  ) {}

  /** A buffer holding the ASCII text in its first `text.length` bytes; `undefined` for a text over the pooled size. */
  take(text: string): Buffer | undefined {
    if (text.length > this.maxTextBytes) return undefined;
    const size = Math.max(MIN_SIZE, 2 ** Math.ceil(Math.log2(text.length)));
    const buffer = this.free.get(size)?.pop();
    if (buffer !== undefined) this.freeBytes -= size;
    const bytes = buffer ?? Buffer.allocUnsafeSlow(size);
    bytes.write(text, 0, 'latin1');
    return bytes;
  }

  /** Takes back a buffer from {@link take} whose bytes have been written (its response finished). */
  give(buffer: Buffer): void {
    if (this.freeBytes + buffer.length > this.maxFreeBytes) return;
    let list = this.free.get(buffer.length);
    if (list === undefined) this.free.set(buffer.length, (list = []));
    list.push(buffer);
    this.freeBytes += buffer.length;
  }
}

/** The smallest pooled buffer. */
const MIN_SIZE = 8 * 1024;
