import type { Logger } from 'pino';
import type { EngineAnswer, McpEngine } from '../engine/engine.js';
import { isThenable } from '../async/thenable.js';
import type { RequestMeta } from '../era/request-meta.js';
import type { EngineResponse } from '../wire/raw-json.js';
import type { Cancellation } from '../engine/cancellation.js';
import { InFlight } from '@decorum/transport-kit';
import type { RequestChannel } from '../engine/request-channel.js';
import { legacyErrorResponse } from '../era/legacy-errors.js';
import { InvalidParamsError, InvalidRequestError, MethodNotFoundError } from '../errors/protocol-errors.js';
import type { LiveEvent } from '../live/events.js';
import { notificationMethod } from '../live/events.js';
import type { BusSubscription } from '../live/notification-bus.js';
import { serverCapabilities } from '../methods/discover.js';
import { PROGRESS_TOKEN } from '../protocol/meta-keys.js';
import { isRequestId } from '../protocol/request-id.js';
import {
  LOGGING_LEVELS,
  type ClientCapabilities,
  type Implementation,
  type JsonObject,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type LoggingLevel,
  type RequestId,
} from '../protocol/types.js';
import { readClientAnswer } from '../asks/session/client-answer.js';
import { ClientRequests, DEFAULT_CLIENT_REQUEST_TIMEOUT_MS, type ClientRequestOutlet } from '../asks/session/client-requests.js';
import { legacyClientCapabilities, legacyImplementation, legacyServerCapabilities } from './legacy-capabilities.js';
import { LegacyCodec } from '../era/legacy-codec.js';
import { SessionAskSeam } from '../asks/session/session-asks.js';
import { LegacySubscriptions } from './resource-subscriptions.js';
import { LATEST_LEGACY_PROTOCOL_VERSION, negotiateLegacyVersion } from '../era/versions.js';
import { isJsonObject as isObject } from '../protocol/json-object.js';

/** Options of a legacy session. */
export interface LegacySessionOptions {
  /** How long the client has to answer a server→client request (default 300000 ms). */
  clientRequestTimeoutMs?: number;
}

/** Methods that exist only in 2026-07-28: a legacy session does not serve them. */
const MODERN_ONLY = new Set(['server/discover', 'subscriptions/listen']);

function ok(id: RequestId, result: JsonObject = {}): EngineResponse {
  return { jsonrpc: '2.0', id, result: result as never };
}

/**
 * One legacy (initialize-based, 2025-11-25 and earlier) session: on stdio the whole process, on
 * HTTP one `Mcp-Session-Id`. It answers the lifecycle methods itself (`initialize`, `ping`,
 * `logging/setLevel`, `resources/subscribe`/`unsubscribe`), runs everything else through the same
 * engine and handlers as the modern era — with asks answered by live requests — whose answers
 * its codec (made once, at `initialize`) shapes for the negotiated revision. Session-level messages (list changes, resource updates) go to
 * the transport's outlet. It knows nothing of bytes.
 */
export class LegacySession implements LegacySessionView {
  protocolVersion = '';
  /** The client's capabilities as the negotiated revision reads them (see legacy-capabilities.ts). */
  clientCapabilities: ClientCapabilities = {};
  clientInfo: Implementation | undefined;
  logLevel: LoggingLevel | undefined;
  /** True once `initialize` was answered. */
  initialized = false;
  /** How this session's answers are shaped: the negotiated revision's (set by `initialize`). */
  private codec = new LegacyCodec(LATEST_LEGACY_PROTOCOL_VERSION);
  readonly requests: ClientRequests;
  private readonly subscribed: LegacySubscriptions;
  private readonly inFlight = new InFlight<Cancellation>();
  private subscription: BusSubscription | undefined;
  private closed = false;
  private readonly log: Logger;

  constructor(
    private readonly engine: McpEngine,
    /** Where session-level messages go: server notifications, and asks that have no request stream. */
    private readonly outlet: ClientRequestOutlet,
    options: LegacySessionOptions = {},
  ) {
    this.log = engine.state.logger.child({ era: 'legacy' });
    this.requests = new ClientRequests(options.clientRequestTimeoutMs ?? DEFAULT_CLIENT_REQUEST_TIMEOUT_MS, this.log);
    this.subscribed = new LegacySubscriptions(engine.state);
  }

  /**
   * Handles one request: lifecycle methods here, the rest through the engine, with this session's
   * meta, codec and asks (requests to the client go to `requestOutlet`: on HTTP the request's own
   * stream). The answer itself when it is ready at once, else a promise that never rejects (see
   * `McpEngine.answerRequest`).
   */
  answerRequest(request: JsonRpcRequest, channel: RequestChannel, requestOutlet: ClientRequestOutlet = this.outlet): EngineAnswer {
    const answered = this.lifecycle(request);
    if (answered) return answered;
    const { id, method } = request;
    const subscribing = method === 'resources/subscribe' || method === 'resources/unsubscribe';
    const opening = {
      meta: this.meta(request.params ?? {}),
      method: subscribing ? this.subscribed.method : undefined,
      asks: new SessionAskSeam(this, requestOutlet),
    };
    const { cancellation } = channel;
    if (!cancellation) return this.engine.answerRequest(request, channel, opening);
    this.inFlight.set(id, cancellation);
    const answer = this.engine.answerRequest(request, channel, opening);
    if (!isThenable(answer)) return this.ran(id, answer);
    return answer.then((response) => this.ran(id, response));
  }

  /** Lifecycle methods and requests this session refuses, answered here; `undefined` for one the engine answers. */
  private lifecycle(request: JsonRpcRequest): EngineResponse | undefined {
    try {
      if (this.closed) throw new InvalidRequestError('Invalid Request: this session has ended; initialize a new one');
      if (request.method === 'initialize') return this.initialize(request);
      if (request.method === 'ping') return ok(request.id);
      if (!this.initialized) throw new InvalidRequestError(`Invalid Request: ${request.method} before initialize; send initialize first`);
      if (request.method === 'logging/setLevel') return this.setLevel(request.id, request.params ?? {});
      if (MODERN_ONLY.has(request.method))
        throw new MethodNotFoundError(`Method not found: ${request.method} is a 2026-07-28 method; this session speaks ${this.protocolVersion}`);
      return undefined;
    } catch (error) {
      return legacyErrorResponse(request.id, error);
    }
  }

  /** A request has run: it leaves the in-flight map. */
  private ran(id: RequestId, response: EngineResponse | undefined): EngineResponse | undefined {
    this.inFlight.delete(id);
    return response;
  }

  /** Client notifications: `initialized`, `cancelled` (aborts the request it names), `roots/list_changed`. */
  handleNotification(notification: JsonRpcNotification): void {
    if (notification.method === 'notifications/cancelled') {
      const id = notification.params?.requestId;
      if (isRequestId(id)) this.inFlight.get(id)?.cancel();
    } else if (notification.method !== 'notifications/initialized' && !this.engine.notification(notification, false)) {
      this.log.debug({ method: notification.method }, 'client notification ignored');
    }
  }

  /**
   * A response from the client: routed to the server→client request it answers. An unknown id is
   * logged and ignored. A malformed response (`"error": null`, both `result` and `error`, …) fails
   * the request it names, if one waits, and is refused: the transport answers the returned -32600.
   * Either way the session keeps serving.
   */
  handleResponse(response: { id?: unknown; result?: unknown; error?: unknown }): InvalidRequestError | undefined {
    const answer = readClientAnswer(response);
    const matched = this.requests.settle(response.id, answer);
    if (!answer.ok) return new InvalidRequestError(`Invalid Request: a malformed JSON-RPC response: ${answer.problem}`);
    if (!matched) this.log.warn({ id: response.id }, 'ignored a response whose id matches no request this session sent');
    return undefined;
  }

  /** Ends the session: waiting asks fail, in-flight requests are cancelled, no more notifications. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.subscription?.close();
    this.requests.close();
    for (const cancellation of this.inFlight.drain()) cancellation.cancel();
  }

  private initialize(request: JsonRpcRequest): EngineResponse {
    if (this.initialized) throw new InvalidRequestError('Invalid Request: the session is already initialized; initialize is sent once per session');
    const params = request.params ?? {};
    if (typeof params.protocolVersion !== 'string') throw new InvalidParamsError('Invalid params: initialize needs params.protocolVersion (a string)');
    if (!isObject(params.capabilities)) throw new InvalidParamsError('Invalid params: initialize needs params.capabilities (an object; {} for none)');
    if (!isObject(params.clientInfo) || typeof params.clientInfo.name !== 'string') {
      throw new InvalidParamsError('Invalid params: initialize needs params.clientInfo ({ name, version })');
    }
    this.protocolVersion = negotiateLegacyVersion(params.protocolVersion);
    this.codec = new LegacyCodec(this.protocolVersion);
    this.clientCapabilities = legacyClientCapabilities(params.capabilities as ClientCapabilities, this.protocolVersion);
    this.clientInfo = params.clientInfo as unknown as Implementation;
    this.initialized = true;
    this.subscription = this.engine.state.live.bus.subscribe({
      wants: (event) => this.subscribed.wants(event),
      deliver: (event) => {
        this.subscribed.deliver(event, this.notifyChange, () => !this.closed);
        return true;
      },
      onDrain: (listener) => listener(),
    });
    const { state } = this.engine;
    const result: JsonObject = {
      protocolVersion: this.protocolVersion,
      capabilities: legacyServerCapabilities(serverCapabilities(state), this.protocolVersion, state.extensions),
      serverInfo: legacyImplementation(state.info, this.protocolVersion),
    };
    if (state.instructions) result.instructions = state.instructions;
    return ok(request.id, result);
  }

  private readonly notifyChange = (event: LiveEvent): void =>
    this.outlet({ jsonrpc: '2.0', method: notificationMethod(event), params: event.type === 'resources/updated' ? { uri: event.uri } : {} });

  private setLevel(id: RequestId, params: JsonObject): EngineResponse {
    if (!LOGGING_LEVELS.includes(params.level as LoggingLevel)) {
      throw new InvalidParamsError(`Invalid params: unknown log level ${JSON.stringify(params.level)}; use one of ${LOGGING_LEVELS.join(', ')}`);
    }
    this.logLevel = params.level as LoggingLevel;
    return ok(id);
  }

  /** The per-request view the engine reads: the session's version, capabilities and log level. */
  private meta(params: JsonObject): RequestMeta {
    const raw = isObject(params._meta) ? params._meta : {};
    const meta: RequestMeta = { protocolVersion: this.protocolVersion, clientCapabilities: this.clientCapabilities, raw, codec: this.codec };
    if (this.clientInfo) meta.clientInfo = this.clientInfo;
    if (this.logLevel) meta.logLevel = this.logLevel;
    const token = raw[PROGRESS_TOKEN];
    if (typeof token === 'string' || (typeof token === 'number' && Number.isInteger(token))) meta.progressToken = token;
    return meta;
  }
}

/** What transports may read of a session. */
export interface LegacySessionView {
  readonly protocolVersion: string;
  readonly initialized: boolean;
}
