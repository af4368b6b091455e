import type { AuthInfo, RequestContext } from '../context/request-context.js';
import { isJsonObject } from '../protocol/json-object.js';
import type { JsonObject, RequestId } from '../protocol/types.js';
import type { CallTarget } from '../registry/targets.js';

/**
 * One request as middleware and guards see it: its method, params, target, caller and `ctx`.
 * The engine's call of a request is one (`engine/request-call.ts`), and so is a list item checked
 * for a per-caller list (`listing-call.ts`). Every MRTR round is its own call (a retry is a fresh
 * request; `isRetry` tells them apart).
 */
export abstract class PipelineCall {
  /** The protocol revision the request speaks (`2026-07-28`, `2025-11-25`). */
  abstract readonly protocolVersion: string;
  abstract readonly method: string;
  abstract readonly id: RequestId;
  /** The request's params as sent (`_meta` included). */
  abstract readonly params: JsonObject;
  /** The tool, prompt or resource this request targets; `undefined` for lists and discovery. */
  abstract readonly target: CallTarget | undefined;
  abstract readonly auth: AuthInfo | undefined;
  /** Who the transport says is calling (the remote address on HTTP); absent on stdio. */
  abstract readonly peer: string | undefined;
  /** The legacy era's session id; the modern era has none. */
  abstract readonly sessionId: string | undefined;
  /** The handler's context (the same request id, signal, logger, auth). */
  abstract readonly ctx: RequestContext;

  constructor(
    /** True when this call describes a list item being checked for a per-caller list, not a real call. */
    readonly listing: boolean,
  ) {}

  /** The request's `params._meta` (both eras carry one; `{}` when absent). */
  get meta(): Readonly<JsonObject> {
    const meta = this.params._meta;
    return isJsonObject(meta) ? meta : EMPTY;
  }

  /** `params.arguments` of `tools/call` and `prompts/get` (`{}` when absent). */
  get arguments(): Readonly<JsonObject> {
    const args = this.params.arguments;
    return isJsonObject(args) ? args : EMPTY;
  }

  /** True for an MRTR retry (it carries `requestState` or `inputResponses`). */
  get isRetry(): boolean {
    const { params } = this;
    return params.requestState !== undefined || params.inputResponses !== undefined;
  }

  /** Who this caller is for rate limits: the token's subject, else the peer, else the one local client. */
  get principal(): string {
    const subject = this.auth?.principal;
    if (subject !== undefined) return `sub:${subject}`;
    const peer = this.peer;
    return peer === undefined ? 'local' : peerPrincipal(peer);
  }
}

// The last peer's principal, kept: requests come from few addresses in a row, and the rate
// limiter finds a key it has seen (same string, hash kept) faster than a newly built one.
let lastPeer: string | undefined;
let lastPeerPrincipal = '';

function peerPrincipal(peer: string): string {
  if (peer !== lastPeer) {
    lastPeer = peer;
    lastPeerPrincipal = `peer:${peer}`;
  }
  return lastPeerPrincipal;
}

const EMPTY: Readonly<JsonObject> = Object.freeze({});
