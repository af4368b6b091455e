import { errorResponse } from '../errors/to-json-rpc.js';
import type { ModernCodec } from '../era/modern-codec.js';
import { isLegacyOpening } from '../era/eras.js';
import { MethodNotFoundError, McpProtocolError, UnsupportedProtocolVersionError } from '../errors/protocol-errors.js';
import { discoverMethod } from '../methods/discover.js';
import { promptsListMethod, resourcesListMethod, resourceTemplatesListMethod, toolsListMethod } from '../methods/list-methods.js';
import { promptsGetMethod } from '../methods/prompts-get.js';
import { resourcesReadMethod } from '../methods/resources-read.js';
import { toolsCallMethod } from '../methods/tools-call.js';
import { completionCompleteMethod } from '../methods/completion-complete.js';
import { subscriptionsListenMethod } from '../methods/subscriptions-listen.js';
import { META } from '../protocol/meta-keys.js';
import type { JsonRpcNotification, JsonRpcRequest, RequestId, Result } from '../protocol/types.js';
import { isRequestId } from '../protocol/request-id.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/version.js';
import { readEnvelope } from '../wire/envelope.js';
import { readRequestMeta, checkProtocolVersion } from './meta.js';
import type { RequestMeta } from '../era/request-meta.js';
import { inEra, type MethodHandler, type ServingState } from '../methods/method.js';
import type { AskSeam } from '../asks/handler-asks.js';
import { RawJson, type EngineResponse } from '../wire/raw-json.js';
import { isThenable } from '../async/thenable.js';
import type { RequestChannel } from './request-channel.js';
import { RequestCall } from './request-call.js';

/**
 * What the engine answers a request with: the response at once when every step was synchronous,
 * or a promise of it (never rejected) when the method waited; `undefined` when there is no
 * response (the request was cancelled).
 */
export type EngineAnswer = EngineResponse | undefined | Promise<EngineResponse | undefined>;

/**
 * What a legacy session already knows of a request before the engine answers it: its meta, read
 * with the session's state and codec; a method of the session's own (`resources/subscribe`); and
 * how its handler's asks are answered (requests to the session's client).
 */
export interface SessionOpening {
  readonly meta: RequestMeta;
  readonly method?: MethodHandler<unknown>;
  readonly asks?: AskSeam;
}

// Each handler resolves its own target type; the engine only passes it from resolve to run.
const METHODS = [
  discoverMethod,
  toolsListMethod,
  toolsCallMethod,
  promptsListMethod,
  promptsGetMethod,
  resourcesListMethod,
  resourceTemplatesListMethod,
  resourcesReadMethod,
  completionCompleteMethod,
  subscriptionsListenMethod,
] as unknown as ReadonlyArray<MethodHandler<unknown>>;

/**
 * The transport-agnostic JSON-RPC engine of MCP 2026-07-28. It never sees bytes or headers:
 * transports hand it parsed messages and a {@link RequestChannel}, and serialize what it returns.
 *
 * One pass per request, in the spec's order: `_meta` read, the transport's checks of it
 * (`channel.checkMeta`), version, method, the one call object (`RequestCall`) with its target, the
 * transport's checks of the target (`channel.checkTarget`), the pipeline and the method, and the
 * answer finished by the request's codec. The answer itself when nothing waited (an
 * {@link EngineAnswer}; a transport that needs a promise wraps it at its edge).
 */
export class McpEngine {
  /** The core methods and the extensions' (checked at start-up never to clash): one lookup per request. */
  private readonly methods: ReadonlyMap<string, MethodHandler<unknown>>;
  /** How 2026-07-28 answers are finished; also the codec of an error no era was decided for yet (a transport's parse error). */
  readonly modern: ModernCodec;

  constructor(readonly state: ServingState) {
    this.modern = state.modern;
    const extensionMethods = state.extensions?.methods ?? [];
    this.methods = new Map([...METHODS, ...extensionMethods].map((m) => [m.method, m]));
  }

  /**
   * Handles one parsed message: the response, or `undefined` when there is none (a notification,
   * a stray response, or a request cancelled before it answered).
   */
  handle(message: unknown, channel: RequestChannel): EngineAnswer {
    let envelope;
    try {
      envelope = readEnvelope(message);
    } catch (error) {
      return errorResponse(undefined, error);
    }
    if (envelope.kind !== 'request') return undefined;
    return this.answerRequest(envelope.request, channel);
  }

  /**
   * Answers one request whose envelope the transport already read (stdio reads it first to route
   * notifications and refuse duplicate ids); a legacy session passes what it read of the request
   * (`session`). The response (or `undefined`) itself when every step answered synchronously — a
   * plain tool, a list, any error before the method ran — and a promise only when the method
   * waits; never throws, and a promise it returns never rejects.
   */
  answerRequest(request: JsonRpcRequest, channel: RequestChannel, session?: SessionOpening): EngineAnswer {
    let call: RequestCall;
    let meta: RequestMeta | undefined = session?.meta;
    try {
      const handler = session?.method ?? this.methods.get(request.method);
      if (meta === undefined) {
        meta = this.readMeta(request);
        channel.checkMeta?.(request, meta, handler?.nameParam);
        checkProtocolVersion(meta.protocolVersion);
      }
      if (!handler || !handler.served(this.state)) throw new MethodNotFoundError(`Method not found: ${request.method}`);
      // Extension methods only: their eras, then their client gate, before the params are read.
      if (handler.eras !== undefined && !inEra(handler.eras, meta.codec === this.modern))
        throw new MethodNotFoundError(`Method not found: ${request.method} is not served in protocol ${meta.protocolVersion}`);
      handler.gate?.(meta, meta.codec === this.modern);
      call = new RequestCall(request, meta, handler, this.state, channel, session?.asks);
      channel.checkTarget?.(call);
    } catch (error) {
      // A typed error is the client's business; anything else is a bug to log.
      if (!(error instanceof McpProtocolError)) this.state.logger.error({ err: error, method: request.method }, 'request failed while routing');
      return meta === undefined ? errorResponse(request.id, error) : meta.codec.error(request.id, error);
    }
    if (call.cancelled) return undefined;
    let running: Promise<Result | RawJson> | Result | RawJson;
    try {
      const { pipeline } = this.state;
      running = pipeline?.covers(call.target) ? pipeline.run(call, call.handler) : call.handler.run(call);
    } catch (error) {
      return this.failed(call, error);
    }
    return isThenable(running) ? this.answerLater(call, running) : this.answered(call, running);
  }

  /**
   * The request's `_meta`. A legacy `initialize` is answered here, before anything else, with an
   * error that names the versions this server speaks.
   */
  private readMeta(request: JsonRpcRequest): RequestMeta {
    // Only a legacy-shaped initialize (no per-request version) gets the legacy answer; a modern
    // request that happens to say "initialize" is simply an unknown method.
    if (isLegacyOpening(request)) {
      const requested = request.params?.protocolVersion;
      throw new UnsupportedProtocolVersionError(
        `This server speaks MCP ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')} only, which has no initialize: send server/discover or call methods directly with _meta["${META.protocolVersion}"] = "${LATEST_PROTOCOL_VERSION}"`,
        SUPPORTED_PROTOCOL_VERSIONS,
        typeof requested === 'string' ? requested : null,
      );
    }
    return readRequestMeta(request.params, this.modern);
  }

  /**
   * The answer of a method that waited. Apart from {@link answerRequest} so that a synchronous
   * answer makes no closures, and so no context object for them, per request.
   */
  private answerLater(call: RequestCall, running: PromiseLike<Result | RawJson>): Promise<EngineResponse | undefined> {
    return Promise.resolve(running).then(
      (result) => this.answered(call, result),
      (error: unknown) => this.failed(call, error),
    );
  }

  /** The method's result as the response, shaped once by the request's codec (none once the request was cancelled). */
  private answered(call: RequestCall, result: Result | RawJson): EngineResponse | undefined {
    call.close();
    if (call.cancelled) return undefined;
    try {
      return { jsonrpc: '2.0', id: call.request.id, result: call.requestMeta.codec.result(call.request.method, result, call.cacheHints) };
    } catch (error) {
      // A result that cannot take its modern keys (a middleware's frozen object): the request's failure, not the transport's.
      return this.failed(call, error);
    }
  }

  /** The method's failure as an error response: a typed error is the client's business; anything else is a bug to log. */
  private failed(call: RequestCall, error: unknown): EngineResponse | undefined {
    call.close();
    if (call.cancelled) return undefined;
    if (!(error instanceof McpProtocolError)) call.log.error({ err: error }, 'request failed');
    return call.requestMeta.codec.error(call.request.id, error);
  }

  /**
   * A client notification of an extension's (core's own, `notifications/cancelled` and
   * `initialized`, are the transports' and sessions'): handed to its extension in this era.
   * Returns whether one took it; errors are logged.
   */
  notification(notification: JsonRpcNotification, modern: boolean, sessionId?: string): boolean {
    return this.state.extensions?.deliver(notification, modern, sessionId, this.state.logger) ?? false;
  }

  /** The notification that a transport may want to act on (stdio cancellation). */
  static cancelledRequestId(notification: JsonRpcNotification): RequestId | undefined {
    if (notification.method !== 'notifications/cancelled') return undefined;
    const id = notification.params?.requestId;
    return isRequestId(id) ? id : undefined;
  }
}
