/** The shapes of MRTR input requests and answers (MCP 2026-07-28 `InputRequest`/`InputResponse`). */
import type { JsonObject, Result } from '../protocol/types.js';
import type { ElicitationSchemaSource, RequestedSchema } from './elicitation-schema.js';

/** Form-mode elicitation, as a handler asks for it. */
export interface ElicitFormParams {
  mode?: 'form';
  /** What the user is asked, shown with the form. */
  message: string;
  /** A flat object of primitives: the restricted schema itself, a class-validator DTO class, or a TypeBox object. */
  requestedSchema: ElicitationSchemaSource;
}

/** URL-mode elicitation: the user is sent to `url` (needs the client's `elicitation.url` capability). */
export interface ElicitUrlParams {
  mode: 'url';
  message: string;
  url: string;
}

/** What `ctx.elicit` asks: a form (`requestedSchema`) or a URL to visit. */
export type ElicitParams = ElicitFormParams | ElicitUrlParams;

/** A form field's value in accepted content. */
export type ElicitValue = string | number | boolean | string[];

/** The user's answer to an elicitation. `content` only for accepted form mode, checked against the schema. */
export interface ElicitResult<Content = Record<string, ElicitValue>> {
  action: 'accept' | 'decline' | 'cancel';
  content?: Content;
}

/** Parameters of `sampling/createMessage` (deprecated in 2026-07-28, still served). */
export interface CreateMessageParams extends JsonObject {
  messages: JsonObject[];
  maxTokens: number;
}

/** The client's sampled message. */
export interface CreateMessageResult extends JsonObject {
  role: 'user' | 'assistant';
  content: JsonObject | JsonObject[];
  model: string;
}

/** A root the client exposes (`file://…`). */
export interface Root {
  uri: string;
  name?: string;
  [key: string]: unknown;
}

/** Options common to `ctx.elicit`, `ctx.sample` and `ctx.roots`. */
export interface InputOptions {
  /**
   * The key of this ask in `inputRequests`/`inputResponses`. Default: `elicit-N`, `sample-N`,
   * `roots-N` by call order within the handler run (stable as long as the handler is deterministic).
   */
  key?: string;
  /** When the client lacks the capability, resolve to `undefined` instead of failing with -32021. */
  optional?: boolean;
}

/** One input request on the wire. */
export type InputRequest =
  | { method: 'elicitation/create'; params: { mode: 'form'; message: string; requestedSchema: RequestedSchema } | ElicitUrlParams }
  | { method: 'sampling/createMessage'; params: CreateMessageParams }
  | { method: 'roots/list'; params?: JsonObject };

/** `resultType: "input_required"` (MRTR). */
export interface InputRequiredResult extends Result {
  resultType: 'input_required';
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
  _meta?: JsonObject;
}
