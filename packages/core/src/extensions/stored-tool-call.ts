import type { ClientCapabilities, JsonObject } from '../protocol/types.js';

/** A tool call kept from an earlier request, to run again with `ExtensionRequest.runTool` (JSON only). */
export interface StoredToolCall {
  readonly name: string;
  readonly arguments: JsonObject;
  /** The capabilities the original request's client declared (what `ctx.client` shows and the asks check). */
  readonly clientCapabilities: ClientCapabilities;
  /** The original request's protocol revision. */
  readonly protocolVersion: string;
}
