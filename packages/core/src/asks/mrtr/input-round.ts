/**
 * One MRTR round of one request: the answers it can use (this request's `inputResponses` plus
 * those carried in the sealed `requestState`), the `ctx.once` journal, and the first ask that
 * had no answer. `ctx.elicit`, `ctx.sample`, `ctx.roots` and `ctx.once` are methods of this.
 */
import type { Logger } from 'pino';
import { InvalidParamsError } from '../../errors/protocol-errors.js';
import { elicitAsk, missingCapability, rootsAsk, sampleAsk } from '../ask-requests.js';
import { AskKeys } from '../ask-keys.js';
import { checkAnswer } from '../answer-check.js';
import { OnceJournal } from '../once-journal.js';
import type { RequestedSchema } from '../elicitation-schema.js';
import { isJsonObject as isObject } from '../../protocol/json-object.js';
import type { ClientCapabilities, JsonObject } from '../../protocol/types.js';
import { bindingMismatch, digest, type StateBinding } from './binding.js';
import { InputRequiredSignal } from './input-required.js';
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  InputOptions,
  InputRequest,
  InputRequiredResult,
  Root,
} from '../ask-types.js';
import { StateKeyRing } from './state-seal.js';

/** The `mrtr` option of `createServer`. */
export interface MrtrOptions {
  /**
   * Base64 32-byte AES keys for sealing `requestState` (or raw 32-byte buffers). The first seals,
   * all open: rotate by putting the new key first. Default: `DECORUM_STATE_KEYS` (comma-separated),
   * else a random per-process key (with a warning: multi-instance deployments need a shared key).
   */
  keys?: ReadonlyArray<string | Uint8Array>;
  /** How long an issued `requestState` stays valid, in ms (default 600000: 10 minutes). */
  ttlMs?: number;
  /** Upper bound of the `ctx.once` journal, in bytes of JSON (default 65536). */
  journalLimitBytes?: number;
  /** The clock (ms since epoch); for tests. Default `Date.now`. */
  now?: () => number;
}

/** The resolved MRTR settings of a server, built once at start-up. */
export interface MrtrConfig {
  readonly ring: StateKeyRing;
  readonly ttlMs: number;
  readonly journalLimitBytes: number;
  readonly now: () => number;
}

export function mrtrConfig(options: MrtrOptions = {}, logger?: Logger, env: NodeJS.ProcessEnv = process.env): MrtrConfig {
  return {
    ring: StateKeyRing.from(options.keys, env, logger),
    ttlMs: options.ttlMs ?? 600_000,
    journalLimitBytes: options.journalLimitBytes ?? 65_536,
    now: options.now ?? Date.now,
  };
}

/** An answer kept across rounds, with the digest of the ask it answers. */
interface KeptAnswer {
  /** Digest of the input request this answers: a changed ask is asked again. */
  readonly d: string;
  readonly r: unknown;
}

/** The plaintext inside `requestState`. */
interface SealedState {
  v: 1;
  b: StateBinding;
  exp: number;
  /** Answers already accepted in earlier rounds. */
  a: Record<string, KeptAnswer>;
  /** Digests of the asks sent in the last `input_required`, by key. */
  p: Record<string, string>;
  /** The `ctx.once` journal. */
  j: Record<string, unknown>;
}

const INVALID_STATE = 'requestState is invalid (tampered, expired, or sealed by another server key)';

function isSealedState(value: unknown): value is SealedState {
  return isObject(value) && value.v === 1 && isObject(value.b) && typeof value.exp === 'number' && isObject(value.a) && isObject(value.p) && isObject(value.j);
}

const MRTR_WHERE = "this request's clientCapabilities";

// Answers a handler's asks as `HandlerAsks` does (structurally: naming it here would close an import circle).
export class InputRound {
  private readonly answers: Record<string, KeptAnswer> = {};
  private readonly journal: OnceJournal;
  private readonly keys = new AskKeys('MRTR key');
  /** The ask that ended this round, once there is one. */
  pending: { key: string; request: InputRequest } | undefined;
  /**
   * Every unanswered ask of this round, by key: the first, plus those started concurrently with
   * it (`Promise.all([ctx.elicit(…), ctx.sample(…)])`, i.e. before the first one's signal could
   * be observed). All of them go out in one `input_required`.
   */
  private readonly asked: Record<string, InputRequest> = {};
  /** True from the first unanswered ask until the microtask queue moves on: concurrent asks join it. */
  private joining = false;
  /** `inputResponses` sent without a `requestState`, by key. */
  private unsolicited: Record<string, unknown> = {};

  /**
   * Opens the request's `requestState` and takes the `inputResponses` it asked for. Throws
   * -32602 for a state that does not open, has expired or belongs to another request.
   */
  constructor(
    private readonly config: MrtrConfig,
    private readonly binding: StateBinding,
    private readonly capabilities: ClientCapabilities,
    params: JsonObject,
  ) {
    const { requestState, inputResponses } = params;
    if (inputResponses !== undefined && !isObject(inputResponses))
      throw new InvalidParamsError('Invalid params: inputResponses must be an object mapping input keys to responses');
    if (requestState === undefined) {
      this.journal = new OnceJournal({}, config.journalLimitBytes);
      // A first request that already carries answers (a client that knows the asks): they count
      // for the asks this run makes, checked like any answer. Nothing is lost by trusting them:
      // the client chooses every answer anyway; the state only carries earlier rounds.
      if (isObject(inputResponses)) this.unsolicited = inputResponses as Record<string, unknown>;
      return;
    }
    if (typeof requestState !== 'string') throw new InvalidParamsError('Invalid params: requestState must be a string');
    const opened = this.config.ring.open(requestState);
    if (!isSealedState(opened)) throw new InvalidParamsError(INVALID_STATE);
    if (opened.exp <= this.config.now()) throw new InvalidParamsError('requestState has expired; start the request again without requestState');
    const mismatch = bindingMismatch(opened.b, binding);
    if (mismatch) throw new InvalidParamsError(mismatch);
    Object.assign(this.answers, opened.a);
    this.journal = new OnceJournal({ ...opened.j }, config.journalLimitBytes);
    for (const [key, askDigest] of Object.entries(opened.p)) {
      const response = (inputResponses as Record<string, unknown> | undefined)?.[key];
      if (response !== undefined && typeof askDigest === 'string') this.answers[key] = { d: askDigest, r: response };
    }
  }

  /** A stored answer to this exact ask, if any. */
  private answerFor(key: string, request: InputRequest): unknown {
    const kept = this.answers[key];
    if (!kept) return this.unsolicited[key];
    if (kept.d !== digest(request)) return undefined;
    return kept.r;
  }

  /** Ends the round: records the ask (even if the handler catches the signal) and throws. */
  private ask(key: string, request: InputRequest): never {
    delete this.answers[key];
    if (!this.pending) {
      this.pending = { key, request };
      this.joining = true;
      // Asks started in the same synchronous run (Promise.all) join; one started after a caught signal does not.
      queueMicrotask(() => {
        this.joining = false;
      });
    }
    this.asked[key] = request;
    throw new InputRequiredSignal(key, request);
  }

  /** The answer to a ready ask: kept for later rounds; asked (again) when missing or its content does not fit. */
  private answered<T>(key: string, request: InputRequest, schema?: RequestedSchema): T {
    const answer = this.answerFor(key, request);
    if (answer === undefined) return this.ask(key, request);
    const checked = checkAnswer(key, request, answer, schema);
    if (!checked.ok) return this.ask(key, request); // invalid accepted content: ask again
    return this.keep(key, request, checked.value as T);
  }

  async elicit(params: ElicitParams, options?: InputOptions): Promise<ElicitResult | undefined> {
    this.guard();
    const key = this.keys.next('elicit', options);
    const ask = elicitAsk(params, this.capabilities);
    if (!ask.ok) return missingCapability(ask, options, MRTR_WHERE);
    return this.answered(key, ask.request, ask.schema);
  }

  async sample(params: CreateMessageParams, options?: InputOptions): Promise<CreateMessageResult | undefined> {
    this.guard();
    const key = this.keys.next('sample', options);
    const ask = sampleAsk(params, this.capabilities);
    if (!ask.ok) return missingCapability(ask, options, MRTR_WHERE);
    return this.answered(key, ask.request);
  }

  async roots(options?: InputOptions): Promise<Root[] | undefined> {
    this.guard();
    const key = this.keys.next('roots', options);
    const ask = rootsAsk(this.capabilities);
    if (!ask.ok) return missingCapability(ask, options, MRTR_WHERE);
    return this.answered<{ roots: Root[] }>(key, ask.request).roots;
  }

  async once<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
    this.guard();
    this.keys.once(name);
    if (this.journal.has(name)) return this.journal.entries[name] as T;
    // What later rounds get is the JSON of the value, so this round gets the same.
    return this.journal.record(name, await fn());
  }

  /** After the round ended, handlers that caught the signal cannot ask or journal more. */
  private guard(): void {
    if (this.pending && !this.joining) throw new InputRequiredSignal(this.pending.key, this.pending.request);
  }

  private keep<T>(key: string, request: InputRequest, value: T): T {
    this.answers[key] = { d: digest(request), r: value };
    return value;
  }

  /** The `input_required` result of this round: the pending asks and the sealed state. */
  inputRequired(): InputRequiredResult {
    const asked = this.asked; // holds this.pending's ask and the asks that joined it
    const state: SealedState = {
      v: 1,
      b: this.binding,
      exp: this.config.now() + this.config.ttlMs,
      a: this.answers,
      p: Object.fromEntries(Object.entries(asked).map(([key, request]) => [key, digest(request)])),
      j: this.journal.entries,
    };
    return { resultType: 'input_required', inputRequests: { ...asked }, requestState: this.config.ring.seal(state) };
  }
}
