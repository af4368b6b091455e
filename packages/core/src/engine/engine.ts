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
import type { JsonObject, JsonRpcNotification, JsonRpcRequest, RequestId, Result } from '../protocol/types.js';
import { isRequestId } from '../protocol/request-id.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/version.js';
import { readEnvelope } from '../wire/envelope.js';
import { readRequestMeta, checkProtocolVersion, type RequestMeta } from './meta.js';
import type { MethodHandler, ServingState } from '../methods/method.js';
import type { CallTarget } from '../pipeline/call.js';
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

/** A request that passed every engine check and is ready to run. */
export interface PreparedRequest {
  readonly request: JsonRpcRequest;
  readonly meta: RequestMeta;
  readonly params: JsonObject;
  readonly handler: MethodHandler<unknown>;
  /** What the method's `resolve` read from the params (typed by the method: a tool target, a subscription filter). */
  readonly resolved: unknown;
  /** The tool, prompt or resource the request uses, as its method names it (`undefined` for lists and discovery). */
  readonly target: CallTarget | undefined;
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
 * One entry per level, each answering at once when nothing waited (an {@link EngineAnswer}; a
 * transport that needs a promise wraps it at its edge): `handle` (a parsed message),
 * `answerRequest` (a request whose envelope was read), `answer` (a prepared request). Transports
 * with a header layer (HTTP) call the steps themselves — `readMeta`, `checkVersion`, `route`,
 * `answer` — and put their header checks between them, in the order the spec gives.
 */
export class McpEngine {
  private readonly methods = new Map<string, MethodHandler<unknown>>(METHODS.map((m) => [m.method, m]));
  /** How 2026-07-28 answers are finished; also the codec of an error no era was decided for yet (a transport's parse error). */
  readonly modern: ModernCodec;

  constructor(readonly state: ServingState) {
    this.modern = state.modern;
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
   * Handles one request whose envelope the transport already checked with `readEnvelope`
   * (stdio reads it first to route notifications and refuse duplicate ids): every later step.
   * The response (or `undefined`) itself when every step answered synchronously — a plain tool, a
   * list, any error before the method ran — and a promise only when the method waits: a transport
   * that writes an answer in the turn its request arrived in saves a promise and a microtask turn.
   */
  answerRequest(request: JsonRpcRequest, channel: RequestChannel): EngineAnswer {
    let prepared: PreparedRequest;
    try {
      const meta = this.readMeta(request);
      this.checkVersion(meta);
      prepared = this.route(request, meta);
    } catch (error) {
      // As in execute: a typed error is the client's business; anything else is a bug to log.
      if (!(error instanceof McpProtocolError)) this.state.logger.error({ err: error, method: request.method }, 'request failed while routing');
      return errorResponse(request.id, error);
    }
    return this.answer(prepared, channel);
  }

  /**
   * Step 1: the request's `_meta`. A legacy `initialize` is answered here, before anything else,
   * with an error that names the versions this server speaks.
   */
  readMeta(request: JsonRpcRequest): RequestMeta {
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

  /** Step 2: the requested protocol version is one this server speaks (-32022 otherwise). */
  checkVersion(meta: RequestMeta): void {
    checkProtocolVersion(meta.protocolVersion);
  }

  /** Step 3: the method exists and is served (-32601), and its target resolves (-32602). */
  route(request: JsonRpcRequest, meta: RequestMeta): PreparedRequest {
    const handler = this.methods.get(request.method);
    if (!handler || !handler.served(this.state)) throw new MethodNotFoundError(`Method not found: ${request.method}`);
    const params = request.params ?? {};
    const resolved = handler.resolve ? handler.resolve(params, this.state) : undefined;
    return { request, meta, params, handler, resolved, target: handler.target?.(resolved) };
  }

  /**
   * Step 4: runs the method, and finishes its answer with the request's codec (`meta.codec`). The
   * response itself when the method answered synchronously (see {@link answerRequest}), else a
   * promise; `undefined` when the request was cancelled. Never throws; a promise it returns never rejects.
   */
  answer(prepared: PreparedRequest, channel: RequestChannel): EngineAnswer {
    const call = new RequestCall(prepared.request, prepared.meta, prepared.params, prepared.resolved, prepared.target, prepared.handler, this.state, channel);
    if (call.cancelled) return undefined;
    let running: Promise<Result | RawJson> | Result | RawJson;
    try {
      const { pipeline } = this.state;
      running = pipeline?.covers(call.target) ? pipeline.run(call, call) : call.run();
    } catch (error) {
      return this.failed(call, error);
    }
    return isThenable(running) ? this.answerLater(call, running) : this.answered(call, running);
  }

  /**
   * The answer of a method that waited. Apart from {@link answer} so that a synchronous answer
   * makes no closures, and so no context object for them, per request.
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

  /** The notification that a transport may want to act on (stdio cancellation). */
  static cancelledRequestId(notification: JsonRpcNotification): RequestId | undefined {
    if (notification.method !== 'notifications/cancelled') return undefined;
    const id = notification.params?.requestId;
    return isRequestId(id) ? id : undefined;
  }
}
