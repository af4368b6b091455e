import type { Logger } from 'pino';
import type { RawJson } from '../wire/raw-json.js';
import type { McpProtocolError } from '../errors/protocol-errors.js';
import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';
import { unknownItem } from '../errors/unknown-item.js';
import type { ListSettings, Registry } from '../registry/registry.js';
import type { ToolEntry } from '../registry/entries.js';
import type { PipelineCall } from './call.js';
import type { CallTarget } from '../registry/targets.js';
import { checkGuards, verdict, type Guard } from './guard.js';
import { listingCall, listOf, type ListEntry, type ListKind } from './listing-call.js';
import { runChain, type CallResult, type Middleware, type Terminal } from './middleware.js';
import { PerCallerLists } from './per-caller-lists.js';
import { RateLimiter, type RateLimitOptions } from './rate-limit/limiter.js';
import type { RateLimitStore } from './rate-limit/store.js';
import { scopesGuard } from './scopes-guard.js';
import { StepTimer } from './step-timeout.js';
import { Telemetry, type TelemetryOptions } from './telemetry.js';

/** The request-pipeline options of `createServer` (and so of `mcpPlugin` and `serveStdio`). */
export interface PipelineOptions {
  /** Middleware around every request of the server, outermost first (before any `@Use`). */
  middleware?: readonly Middleware[];
  /** Guards for every request of the server, before any `@Guard`. */
  guards?: readonly Guard[];
  /** Rate limiting of `tools/call`, `prompts/get`, `resources/read` (on by default), or `false`. */
  rateLimit?: RateLimitOptions | false;
  /**
   * `'public'` (default): every caller gets the same lists, and access is checked per call.
   * `'per-caller'`: a caller's lists hold only what its guards and scopes allow, with
   * `cacheScope: 'private'`.
   */
  lists?: 'public' | 'per-caller';
  /** OpenTelemetry spans and the duration histogram (default: the global providers, a no-op without an SDK), or `false`. */
  telemetry?: TelemetryOptions | false;
  /**
   * How long one guard or middleware may run on its own — not counting the rest of the chain it
   * hands on to with `next()`, nor the handler — before the request is answered with -32603
   * naming it (default 30,000 ms, {@link @decorum/core!DEFAULT_STEP_TIMEOUT_MS}), or `false` for no bound.
   */
  stepTimeoutMs?: number | false;
}

type Entry = ListEntry;

/**
 * A step around a tool's call (an extension's `around`, extensions/extension.ts): `proceed` runs
 * the rest — the class's and member's `@Use` and the method — on the call, or on one derived from it.
 */
export interface AroundStep {
  applies(tool: ToolEntry): boolean;
  run(call: PipelineCall, proceed: (derived?: object) => Promise<CallResult>): Promise<CallResult> | CallResult;
}

/** What the pipeline takes of a server's extensions (extensions/extension-set.ts). */
export interface PipelineExtensions {
  /** Their middleware, after the server's, in `extensions` order. */
  readonly middleware: readonly Middleware[];
  /** Their `tools/call` around steps, in `extensions` order. */
  readonly toolsCallAround: readonly AroundStep[];
  /** The call `proceed(derived)` runs the rest on. */
  derive(call: PipelineCall, derived: object): PipelineCall;
}

/** Whether a list entry is a tool (only tools have a `definition`). */
function isTool(entry: Entry): entry is ToolEntry {
  return 'definition' in entry;
}

/** One target's steps, composed once: the guards and the middleware chain, in order. */
interface Steps {
  readonly guards: readonly Guard[];
  readonly middleware: readonly Middleware[];
  /** The extensions' `around` steps that wrap this tool (absent for every other entry). */
  readonly around?: readonly AroundStep[];
  /** With `around`: the chain `proceed` runs (the class's and member's `@Use`), before the method. */
  readonly inner?: readonly Middleware[];
}

function functions<T>(value: readonly T[] | undefined, what: string): readonly T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((f) => typeof f !== 'function'))
    throw new DecorumStartupError(StartupErrorCode.INVALID_OPTION, `${what} must be an array of functions`);
  return Object.freeze([...value]);
}

/**
 * Everything between a routed request and its handler, in this order (outermost first):
 * telemetry (span and duration), the rate limit (target methods), guards (the server's, the
 * class's, the member's, then the decorators' `scopes:`), middleware (the server's, the
 * extensions' in `extensions` order, the extensions' `around` steps that wrap this tool, the
 * class's `@Use`, the member's `@Use`), the handler. Built once per server; a target's steps are
 * composed on its first call and kept.
 */
export class Pipeline {
  private readonly middleware: readonly Middleware[];
  /** The extensions' `tools/call` around steps (empty without extensions). */
  private readonly arounds: readonly AroundStep[];
  private readonly derive: PipelineExtensions['derive'] | undefined;
  private readonly guards: readonly Guard[];
  private readonly limiter: RateLimiter | undefined;
  private readonly telemetry: Telemetry | undefined;
  private readonly timer: StepTimer | undefined;
  private readonly serverSteps: Steps;
  private readonly composed = new WeakMap<Entry, Steps>();
  /** Set when lists are per caller. */
  readonly lists: PerCallerLists | undefined;
  /** Whether requests without a target have anything to run through (telemetry, server guards or middleware). */
  private readonly everyRequest: boolean;

  /**
   * @param sharedStore where rate limits are counted when `rateLimit` names no store: a
   *   notification bus spanning instances offers one, so a caller's budget holds across them.
   * @param logger the server log: why a hidden item was refused goes there, never to the client
   *   (a request's `ctx.log` may forward to it).
   */
  constructor(
    options: PipelineOptions,
    listSettings: ListSettings,
    sharedStore?: RateLimitStore,
    private readonly logger?: Logger,
    extensions?: PipelineExtensions,
  ) {
    const own = functions(options.middleware, 'middleware');
    // The extensions' middleware runs right after the server's, on every request.
    this.middleware = extensions && extensions.middleware.length > 0 ? Object.freeze([...own, ...extensions.middleware]) : own;
    this.arounds = extensions?.toolsCallAround ?? [];
    this.derive = extensions?.derive.bind(extensions);
    this.guards = functions(options.guards, 'guards');
    this.limiter = options.rateLimit === false ? undefined : new RateLimiter(options.rateLimit ?? {}, sharedStore);
    this.timer = StepTimer.create(options.stepTimeoutMs, logger);
    this.telemetry = options.telemetry === false ? undefined : Telemetry.create(options.telemetry);
    this.serverSteps = { guards: this.guards, middleware: this.middleware };
    this.everyRequest = this.telemetry !== undefined || this.guards.length > 0 || this.middleware.length > 0;
    const lists = options.lists ?? 'public';
    if (lists !== 'public' && lists !== 'per-caller')
      throw new DecorumStartupError(StartupErrorCode.INVALID_OPTION, `lists must be 'public' or 'per-caller' (got ${JSON.stringify(lists)})`);
    this.lists = lists === 'per-caller' ? new PerCallerLists(listSettings, (entry) => this.stepsFor(entry).guards, this.timer, logger) : undefined;
  }

  /**
   * Whether a request with `target` has anything to go through: a request with a target always
   * does (its rate limit, its own steps); one without only when the server has telemetry, guards
   * or middleware. The engine skips the pipeline otherwise (lists stay cheap).
   */
  covers(target: CallTarget | undefined): boolean {
    return target !== undefined || this.everyRequest;
  }

  /** Runs one request through the pipeline; `terminal` (the method) runs its handler. */
  run<C extends PipelineCall>(call: C, terminal: Terminal<C>): Promise<CallResult> | CallResult {
    return this.telemetry ? this.telemetry.around(call, async () => this.inner(call, terminal)) : this.inner(call, terminal);
  }

  /** A per-caller list page (`lists: 'per-caller'` only). */
  listPage(kind: ListKind, caller: PipelineCall, registry: Registry, cursor: unknown): Promise<RawJson> {
    return this.lists!.page(kind, caller, registry, cursor);
  }

  // Synchronous until a step needs to wait: a refusal throws at once, and a call with nothing
  // asynchronous before its handler takes no extra promise.
  private inner<C extends PipelineCall>(call: C, terminal: Terminal<C>): Promise<CallResult> | CallResult {
    const target = call.target;
    const steps = target ? this.stepsFor(target.entry) : this.serverSteps;
    if (target && this.limiter) {
      const limiting = this.limiter.check(call);
      if (limiting) return limiting.then(() => this.guarded(steps, call, terminal));
    }
    return this.guarded(steps, call, terminal);
  }

  private guarded<C extends PipelineCall>(steps: Steps, call: C, terminal: Terminal<C>): Promise<CallResult> | CallResult {
    if (steps.guards.length > 0) {
      let pending: Promise<void> | undefined;
      try {
        pending = checkGuards(steps.guards, call, this.timer, this.logger);
      } catch (error) {
        return this.refused(steps, call, error);
      }
      if (pending)
        return pending.then(
          () => this.chain(steps, call, terminal),
          (error: unknown) => this.refused(steps, call, error),
        );
    }
    return this.chain(steps, call, terminal);
  }

  /** The middleware chain to the method, or to the extensions' `around` steps when some wrap this tool. */
  private chain<C extends PipelineCall>(steps: Steps, call: C, terminal: Terminal<C>): Promise<CallResult> | CallResult {
    if (steps.around === undefined) return runChain(steps.middleware, call, terminal, this.timer);
    const around = steps.around;
    const inner = steps.inner!;
    const { timer, derive } = this;
    // Each around step's `proceed` runs the next one, the last one's the `@Use` chain and the method, on the derived call if any.
    const from = (index: number, current: PipelineCall): Promise<CallResult> | CallResult => {
      if (index === around.length) return runChain(inner, current as C, terminal, timer);
      return around[index]!.run(current, (derived?: object) =>
        Promise.resolve().then(() => from(index + 1, derived === undefined ? current : derive!(current, derived))),
      );
    };
    return runChain(steps.middleware, call, { run: (c: C) => from(0, c) }, timer);
  }

  /**
   * A refused call. With per-caller lists, an item the caller's lists hide is answered as an
   * unknown one (its existence and guard stay secret; the refusal goes to the log); a visible
   * item's refusal (say, on its arguments) and every refusal with public lists keep the guard's error.
   */
  private async refused(steps: Steps, call: PipelineCall, error: unknown): Promise<never> {
    const target = call.target;
    if (!this.lists || !target || call.listing) throw error;
    if (await verdict(steps.guards, listingCall(listOf(target.entry, call.method), call, target.entry), this.timer, this.logger)) throw error;
    throw this.hidden(call, error, unknownItem(target.kind, target.kind === 'resource' ? target.uri : target.name));
  }

  /** The unknown-item error a hidden item answers with; why it was hidden is logged here only. */
  private hidden(call: PipelineCall, refusal: unknown, unknown: McpProtocolError): McpProtocolError {
    const why = refusal instanceof Error ? refusal.message : String(refusal);
    this.logger?.info({ rpcId: call.id, method: call.method, item: call.target?.name, refusal: why }, 'hidden item answered as unknown');
    return unknown;
  }

  /**
   * Whether `caller` sees `entry` (of list `kind`): every guard of the item lets it through when
   * asked as a per-caller list asks (`call.listing`). Subscriptions ask it of what they watch, in
   * either list mode. Synchronous when the guards are; `target` names one URI of a template.
   */
  sees(kind: ListKind, entry: Entry, caller: PipelineCall, target?: CallTarget): boolean | Promise<boolean> {
    const guards = this.stepsFor(entry).guards;
    return guards.length === 0 || verdict(guards, listingCall(kind, caller, entry, target), this.timer, this.logger);
  }

  /**
   * A request about an item that is not its call (`completion/complete`): refused as the item's
   * call would be when the item's guards refuse it as a list entry — with per-caller lists as an
   * unknown item (`unknown`), with public lists with the guard's error. `undefined` when nothing
   * needs waiting for.
   */
  admit(kind: ListKind, entry: Entry, caller: PipelineCall, unknown: () => McpProtocolError): Promise<void> | undefined {
    const guards = this.stepsFor(entry).guards;
    if (guards.length === 0) return undefined;
    const call = listingCall(kind, caller, entry);
    const refuse = (error: unknown): never => {
      throw this.lists ? this.hidden(call, error, unknown()) : error;
    };
    try {
      return checkGuards(guards, call, this.timer, this.logger)?.catch(refuse);
    } catch (error) {
      return refuse(error);
    }
  }

  private stepsFor(entry: Entry): Steps {
    let steps = this.composed.get(entry);
    if (!steps) {
      const own = entry.steps;
      const use = (own?.use ?? []) as readonly Middleware[];
      // `@Guard` and `@Use` took these typed (decorators/); the registry keeps them as plain steps.
      const guards = Object.freeze([...this.guards, ...((own?.guards ?? []) as readonly Guard[]), ...(entry.scopes.length > 0 ? [scopesGuard] : [])]);
      const around = this.arounds.length > 0 && isTool(entry) ? this.arounds.filter((step) => step.applies(entry)) : [];
      steps =
        around.length === 0
          ? { guards, middleware: Object.freeze([...this.middleware, ...use]) }
          : { guards, middleware: this.middleware, around: Object.freeze(around), inner: Object.freeze([...use]) };
      this.composed.set(entry, steps);
    }
    return steps;
  }
}
