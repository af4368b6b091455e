import type { Readable } from 'node:stream';

/** Default bound of answers waiting for stdout (characters, about bytes): 16 MiB. */
export const DEFAULT_MAX_PENDING_OUTPUT = 16 * 1024 * 1024;
/** Default bound of requests running at once (subscriptions/listen not counted). */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 128;
/** Lines held while the gate is shut, past which stdin is no longer read. */
const MAX_HELD_CHARS = 1024 * 1024;

/**
 * Backpressure from stdout to stdin. A client that stops reading its answers (or sends requests
 * faster than they finish) must not make the server grow without bound: the answers to requests
 * already started are bounded by `maxConcurrentRequests`, and those waiting for stdout by the
 * writer's bound. While either bound is reached the gate is shut: new lines are held here (in the
 * order they came), and once 1 MiB is held — or as soon as stdout is backed up — stdin is paused,
 * so the kernel pipe, and then the client's writes, push back. The gate reopens when a request
 * finishes or stdout drains, and held lines run first.
 *
 * A `notifications/cancelled` line never waits behind the requests it may be cancelling.
 */
export class InputGate {
  private held: string[] = [];
  private heldFrom = 0;
  private heldChars = 0;
  private running = 0;
  private outputBackedUp = false;
  private inputPaused = false;
  /**
   * True while a new line must wait: stdout is backed up, `maxConcurrentRequests` run, or earlier
   * lines wait. Kept as a field, set where its inputs change, so that the per-line check in
   * {@link offer} and {@link finished} reads one boolean instead of getters (docs/perf-notes.md,
   * "Figures behind source comments").
   */
  private shut = false;

  constructor(
    private readonly input: Readable,
    private readonly dispatch: (line: string, screened: boolean) => void,
    private readonly maxConcurrentRequests = DEFAULT_MAX_CONCURRENT_REQUESTS,
  ) {}

  /** True while held lines wait to run. */
  get holding(): boolean {
    return this.heldFrom < this.held.length;
  }

  /** A line from stdin (`screened`: see LineSplitter): run now, or hold until the gate opens. */
  readonly offer = (line: string, screened: boolean): void => {
    if (!this.shut) {
      this.dispatch(line, screened);
      return;
    }
    if (line.includes('"notifications/cancelled"')) {
      this.dispatch(line, screened);
      return;
    }
    this.held.push(line);
    this.heldChars += line.length;
    if (this.heldChars > MAX_HELD_CHARS) this.pauseInput();
  };

  /** The lines still held, in order, which then are no longer held (shutdown answers them). */
  takeHeld(): string[] {
    const lines = this.held.slice(this.heldFrom);
    this.held = [];
    this.heldFrom = 0;
    this.heldChars = 0;
    return lines;
  }

  /** A counted request started. */
  started(): void {
    if (++this.running >= this.maxConcurrentRequests) this.shut = true;
  }

  /** A counted request finished: held lines may run. */
  finished(): void {
    this.running--;
    // While the gate is open nothing is held and stdin is not paused: there is nothing to release.
    if (this.shut) this.release();
  }

  /** The writer's pressure signal: stdout is backed up (true) or has drained (false). */
  readonly outputPressure = (backedUp: boolean): void => {
    this.outputBackedUp = backedUp;
    if (backedUp) {
      this.shut = true;
      this.pauseInput();
    } else this.release();
  };

  private get open(): boolean {
    return !this.outputBackedUp && this.running < this.maxConcurrentRequests;
  }

  /** Runs held lines while the gate is open; reads stdin again once nothing is held. */
  private release(): void {
    while (this.open && this.holding) {
      const line = this.held[this.heldFrom];
      this.held[this.heldFrom++] = '';
      this.heldChars -= line.length;
      // A held line is screened again when it is parsed.
      this.dispatch(line, false);
    }
    // Reset once held lines have all run (not on every finished request: most never held any).
    if (this.heldFrom > 0 && !this.holding) {
      this.held = [];
      this.heldFrom = 0;
      this.heldChars = 0;
    }
    this.shut = !this.open || this.holding;
    if (this.inputPaused && !this.outputBackedUp && this.heldChars <= MAX_HELD_CHARS) {
      this.inputPaused = false;
      this.input.resume();
    }
  }

  private pauseInput(): void {
    if (this.inputPaused) return;
    this.inputPaused = true;
    this.input.pause();
  }
}
