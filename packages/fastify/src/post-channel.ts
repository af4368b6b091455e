import { type AuthInfo, type JsonRpcNotification, type JsonRpcRequest, type Logger, type PipelineCall } from '@decorum/core';
import { encodeMessage, type Cancellation, type ChannelFlow, type FlowChannel, type RequestMeta, type TextEncoding } from '@decorum/core/transport';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { Exchange } from './exchange.js';
import type { McpParamHeaders } from './headers/mcp-param-headers.js';
import { checkMethodHeaders, checkProtocolVersionHeader } from './headers/standard-headers.js';
import { LISTEN_METHOD, sseFlow } from './listen-stream.js';
import { logUnserializable } from './answer-writer.js';
import type { HttpRefusal } from './refusal.js';
import { SseStream } from './sse.js';

/** What every POST's channel checks with, made once per endpoint. */
export interface PostChecks {
  readonly paramHeaders: McpParamHeaders;
  /** On a protected endpoint: the scope check once the target is known (403), see auth/. */
  readonly authorize: ((call: PipelineCall, exchange: Exchange) => HttpRefusal | undefined) | undefined;
  readonly sseKeepAliveMs: number;
}

/** A request with a bigint id carries it in its notifications' `_meta` too: exact digits there as well. */
const EXACT_INTEGERS = { exactIntegers: true } as const;

/**
 * One modern POST's channel to the engine: its cancellation, caller and logger; the header checks
 * the engine calls where the spec puts them; and, once the target passed them, the choice of a JSON
 * or an SSE answer — the stream opened here, so that notifications sent while the request runs go to it.
 */
export class PostChannel implements FlowChannel {
  /** True once the body's `_meta` agreed with the headers: later errors are the target's or the handler's (status.ts). */
  routed = false;
  /** The transport's own refusal (the token lacks the target's scopes): sent instead of the engine's answer. */
  refusal: HttpRefusal | undefined;
  /** The answer's SSE stream, when it is one. */
  stream: SseStream | undefined;
  flow: ChannelFlow | undefined;
  /** How messages of this request are encoded (exact digits for a bigint id). */
  encoding: TextEncoding | undefined;
  /** The request can receive notifications before its response (it sent a progress token or a log level). */
  private notifiable = false;

  constructor(
    private readonly checks: PostChecks,
    private readonly exchange: Exchange,
    private readonly reply: FastifyReply,
    private readonly headers: IncomingHttpHeaders,
    readonly logger: Logger,
  ) {}

  get cancellation(): Cancellation {
    return this.exchange.cancellation;
  }

  get auth(): AuthInfo | undefined {
    return this.exchange.auth;
  }

  get peer(): string {
    return this.reply.request.ip;
  }

  /** `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` agree with the body (-32020). */
  checkMeta(request: JsonRpcRequest, meta: RequestMeta, nameParam?: string): void {
    checkProtocolVersionHeader(this.headers, meta);
    checkMethodHeaders(this.headers, request, nameParam);
    this.notifiable = meta.progressToken !== undefined || meta.logLevel !== undefined;
    this.routed = true;
  }

  /** The token's scopes for the target (a 403 of the transport's), `Mcp-Param-*` (-32020); then JSON or SSE. */
  checkTarget(call: PipelineCall): void {
    const denied = this.checks.authorize?.(call, this.exchange);
    if (denied) {
      this.refusal = denied;
      throw denied;
    }
    const { target } = call;
    if (target?.kind === 'tool') this.checks.paramHeaders.checkTool(target.entry, call.params.arguments, this.headers);
    this.choose(call);
  }

  /**
   * SSE only when the request can receive notifications first (progress, logs) and the client takes
   * SSE — or when it takes nothing else; a listen is always a stream (L-12): it has no response until it ends.
   */
  private choose(call: PipelineCall): void {
    const { accepted } = this.exchange;
    if (call.method !== LISTEN_METHOD && !(this.notifiable && accepted.sse) && accepted.json) return;
    this.exchange.stream = 'sse';
    const { reply } = this;
    // The stream is written to the socket directly; headers other hooks set (CORS, request ids) are kept.
    reply.hijack();
    this.stream = new SseStream(reply.raw);
    this.stream.open(reply.getHeaders() as OutgoingHttpHeaders, this.checks.sseKeepAliveMs);
    this.flow = sseFlow(reply.raw);
    if (typeof call.id === 'bigint') this.encoding = EXACT_INTEGERS;
  }

  /** A notification of the running request: an event of its stream (a JSON answer has nowhere to put one). */
  notify(notification: JsonRpcNotification): void {
    if (!this.stream) return;
    const json = encodeMessage(notification, this.encoding, (error) => logUnserializable(this.logger, error));
    if (json !== undefined) this.stream.send(json);
  }
}
