import type { AuthInfo, RequestContext } from '../context/request-context.js';
import { isJsonObject } from '../protocol/json-object.js';
import type { JsonObject, RequestId } from '../protocol/types.js';
import type { PromptEntry, ResourceEntry, ToolEntry } from '../registry/entries.js';
import type { ResourceMatch } from '../registry/registry.js';

/** What a request is about, when its method has one target: the tool, prompt or resource it uses. */
export type CallTarget =
  | { readonly kind: 'tool'; readonly name: string; readonly entry: ToolEntry }
  | { readonly kind: 'prompt'; readonly name: string; readonly entry: PromptEntry }
  | { readonly kind: 'resource'; readonly name: string; readonly entry: ResourceEntry; readonly uri: string };

/**
 * What an era's engine hands the pipeline about one request. Era-neutral on purpose: the
 * 2026-07-28 engine and a legacy (2025-11-25) dispatcher both describe a request this way, so
 * middleware, guards, limits and traces work the same in both.
 */
export interface CallDescription {
  /** The protocol revision the request speaks (`2026-07-28`, `2025-11-25`). */
  readonly protocolVersion: string;
  readonly method: string;
  readonly id: RequestId;
  /** The request's params as sent (`_meta` included). */
  readonly params: JsonObject;
  /** The method's resolved target (a `ToolEntry`, `PromptEntry` or `ResourceMatch`), if any. */
  readonly resolved: unknown;
  readonly auth: AuthInfo | undefined;
  /** Who the transport says is calling (the remote address on HTTP); absent on stdio. */
  readonly peer: string | undefined;
  /** The legacy era's session id; the modern era has none. */
  readonly sessionId?: string;
  /** Makes the handler-facing context (called at most once, when middleware reads `ctx`). */
  context(): RequestContext;
}

/**
 * One request as middleware and guards see it: its method, params, target, caller and `ctx`.
 * Every MRTR round is its own call (a retry is a fresh request; `isRetry` tells them apart).
 */
export class PipelineCall {
  private ctxMade: RequestContext | undefined;
  private targetMade: CallTarget | null | undefined;

  constructor(
    private readonly description: CallDescription,
    /** True when this call describes a list item being checked for a per-caller list, not a real call. */
    readonly listing = false,
  ) {}

  get protocolVersion(): string {
    return this.description.protocolVersion;
  }

  get method(): string {
    return this.description.method;
  }

  get id(): RequestId {
    return this.description.id;
  }

  get params(): JsonObject {
    return this.description.params;
  }

  /** The request's `params._meta` (both eras carry one; `{}` when absent). */
  get meta(): Readonly<JsonObject> {
    const meta = this.description.params._meta;
    return isJsonObject(meta) ? meta : EMPTY;
  }

  /** `params.arguments` of `tools/call` and `prompts/get` (`{}` when absent). */
  get arguments(): Readonly<JsonObject> {
    const args = this.description.params.arguments;
    return isJsonObject(args) ? args : EMPTY;
  }

  /** The tool, prompt or resource this request targets; `undefined` for lists and discovery. */
  get target(): CallTarget | undefined {
    if (this.targetMade === undefined) this.targetMade = targetOf(this.description.method, this.description.resolved) ?? null;
    return this.targetMade ?? undefined;
  }

  /** The raw target the method resolved (for a legacy dispatcher or a transport). */
  get resolved(): unknown {
    return this.description.resolved;
  }

  get auth(): AuthInfo | undefined {
    return this.description.auth;
  }

  get peer(): string | undefined {
    return this.description.peer;
  }

  get sessionId(): string | undefined {
    return this.description.sessionId;
  }

  /** True for an MRTR retry (it carries `requestState` or `inputResponses`). */
  get isRetry(): boolean {
    const { params } = this.description;
    return params.requestState !== undefined || params.inputResponses !== undefined;
  }

  /** The handler's context (the same request id, signal, logger, auth). */
  get ctx(): RequestContext {
    return (this.ctxMade ??= this.description.context());
  }

  /** Who this caller is for rate limits: the token's subject, else the peer, else the one local client. */
  get principal(): string {
    const subject = this.description.auth?.principal;
    if (subject !== undefined) return `sub:${subject}`;
    const peer = this.description.peer;
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

/** The target of the three target methods, from what each resolves. */
function targetOf(method: string, resolved: unknown): CallTarget | undefined {
  if (resolved === undefined || resolved === null) return undefined;
  switch (method) {
    case 'tools/call': {
      const entry = resolved as ToolEntry;
      return { kind: 'tool', name: entry.name, entry };
    }
    case 'prompts/get': {
      const entry = resolved as PromptEntry;
      return { kind: 'prompt', name: entry.name, entry };
    }
    case 'resources/read': {
      const match = resolved as ResourceMatch & { uri?: string };
      return { kind: 'resource', name: match.entry.name, entry: match.entry, uri: match.uri ?? (match.entry.kind === 'fixed' ? match.entry.uri : '') };
    }
    default:
      return undefined;
  }
}
