import type { Logger } from 'pino';
import type { CacheHints, Implementation, JsonObject, JsonRpcNotification, JsonRpcRequest, Result } from '../protocol/types.js';
import type { Registry } from '../registry/registry.js';
import type { RawJson } from '../wire/raw-json.js';
import type { RequestChannel } from '../engine/request-channel.js';
import type { RequestMeta } from '../era/request-meta.js';
import type { LiveRegistry } from '../live/live-registry.js';
import type { MrtrConfig } from '../asks/mrtr/input-round.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { PipelineCall } from '../pipeline/call.js';
import type { CallTarget } from '../registry/targets.js';
import type { RequestContext } from '../context/request-context.js';
import type { ModernCodec } from '../era/modern-codec.js';
import type { ListenFilter } from '../live/extension-listens.js';
import type { AskingCall, AskSeam, HandlerAsks } from '../asks/handler-asks.js';

/** What method handlers may read about the server they serve. */
export interface ServingState {
  /** The registry snapshot serving now (a getter: live changes swap it between requests). */
  readonly registry: Registry;
  /** The mutable side: live changes, completers and the notification bus. */
  readonly live: LiveRegistry;
  readonly info: Implementation;
  /** The server's 2026-07-28 codec: it finishes every modern answer, and each list page once. */
  readonly modern: ModernCodec;
  readonly instructions: string | undefined;
  readonly discoverCache: CacheHints;
  /** Default hints of `resources/read` results. */
  readonly readCache: CacheHints;
  readonly logger: Logger;
  /** Sealing keys and limits of MRTR `requestState` (a process-wide default when absent). */
  readonly mrtr?: MrtrConfig;
  /** Middleware, guards, rate limit and telemetry around each request (absent: the handler alone). */
  readonly pipeline?: Pipeline;
  /** The installed extensions (absent when built without any). */
  readonly extensions?: ServedExtensions;
}

/** What the engine and the methods read of a server's extensions (`extensions/extension-set.ts`). */
export interface ServedExtensions {
  /** The extensions' request methods, wrapped as method handlers. */
  readonly methods: ReadonlyArray<MethodHandler<unknown>>;
  /** `capabilities.extensions` in the modern era (`server/discover`) or the legacy one (`initialize`); `undefined` when none. */
  advertised(modern: boolean): Readonly<Record<string, JsonObject>> | undefined;
  /** The extra legacy `initialize` capabilities for a negotiated revision (Tasks: `capabilities.tasks`). */
  legacyCapabilities(version: string): JsonObject | undefined;
  /** Request-scoped notifications pass through this before they are sent (absent when no extension has `outbound`). */
  readonly outbound: ((notification: JsonRpcNotification, call: PipelineCall) => JsonRpcNotification | undefined) | undefined;
  /** The extensions' `subscriptions/listen` filters, by their field under `notifications`. */
  readonly listens: ReadonlyMap<string, ListenFilter>;
  /** Hands a client notification to the extension that handles its method in this era; false when none does. */
  deliver(notification: JsonRpcNotification, modern: boolean, sessionId: string | undefined, logger: Logger): boolean;
}

/** Whether something that exists in `eras` exists in the modern (or the legacy) era; absent: both. */
export function inEra(eras: 'both' | 'modern' | 'legacy' | undefined, modern: boolean): boolean {
  return eras === undefined || eras === 'both' || eras === (modern ? 'modern' : 'legacy');
}

/**
 * One call of a method, after the engine's checks: what its handler reads (params, what it
 * resolved, the server), and what middleware and guards see (a {@link PipelineCall}). The engine
 * makes one per request (`request-call.ts`); it owns the request's cancellation, log and progress.
 */
export interface MethodCall<Resolved> extends PipelineCall, AskingCall {
  readonly request: JsonRpcRequest;
  /** What the request's `_meta` says (version, client capabilities, log level, progress token). */
  readonly requestMeta: RequestMeta;
  /** What the method's `resolve` produced from the params (a tool target, a subscription filter). */
  readonly resolved: Resolved;
  readonly state: ServingState;
  /** The transport's channel (`subscriptions/listen` reads its optional flow control). */
  readonly channel: RequestChannel;
  /** How the handler's asks are answered: a legacy session's requests to its client; an MRTR round when absent. */
  readonly asks: AskSeam | undefined;
  /** True once the request was cancelled: its response must be suppressed. */
  readonly cancelled: boolean;
  /**
   * The cache hints the method chose for its result, beside it rather than in it: the modern codec
   * writes them as `ttlMs`/`cacheScope` when the engine finishes the answer; legacy revisions have none.
   */
  cacheHints: CacheHints | undefined;
  /** Sends a request-related notification while the request is open. */
  notify(method: string, params: JsonObject): void;
  /** The handler's `ctx`, with the asks it answers `ctx.elicit`/`sample`/`roots`/`once` by (none outside a handler). */
  context(asks?: HandlerAsks): RequestContext;
}

/**
 * One MCP method. `served` gates it on what is registered (an unserved method is -32601, as the
 * spec asks for capability-gated methods); `resolve` reads its params into what it needs (the
 * tool, prompt or resource) before the transport's own checks that need it; `target` says which
 * item that is for the pipeline and telemetry (methods without one leave it out); `run` produces
 * the result.
 */
export interface MethodHandler<Resolved = undefined> {
  readonly method: string;
  /** The eras the method exists in (extension methods); absent: wherever the engine routes it. Elsewhere -32601. */
  readonly eras?: 'both' | 'modern' | 'legacy';
  /** The param HTTP's `Mcp-Name` must carry (extension methods; core methods' come from the transport's table). */
  readonly nameParam?: string;
  /** Refuses a request before its params are read (an extension's client gate, -32021); `modern` tells the era. */
  gate?(meta: RequestMeta, modern: boolean): void;
  served(state: ServingState): boolean;
  resolve?(params: JsonObject, state: ServingState): Resolved;
  target?(resolved: Resolved): CallTarget;
  run(call: MethodCall<Resolved>): Promise<Result | RawJson> | Result | RawJson;
}

/** Identity helper that keeps a handler's resolved type. */
export function defineMethod<Resolved = undefined>(handler: MethodHandler<Resolved>): MethodHandler<Resolved> {
  return handler;
}
