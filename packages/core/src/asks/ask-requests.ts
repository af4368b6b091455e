/**
 * What an ask sends to the client, and whether the client declared the capability it needs. MRTR
 * rounds and a legacy session's requests build the same requests and apply the same capability rules;
 * only where the capabilities come from differs (the request's `_meta`, or `initialize`).
 */
import { MissingRequiredClientCapabilityError } from '../errors/protocol-errors.js';
import { DecorumUsageError, UsageErrorCode } from '../errors/usage-error.js';
import type { ClientCapabilities } from '../protocol/types.js';
import { toRequestedSchema, type RequestedSchema } from './elicitation-schema.js';
import type { CreateMessageParams, ElicitParams, InputOptions, InputRequest } from './ask-types.js';
import { isJsonObject as isObject } from '../protocol/json-object.js';

/** An ask ready to send, or the capability the client lacks for it. */
export type Ask =
  | { ok: true; request: InputRequest; /** The form's schema, to check accepted content against. */ schema?: RequestedSchema }
  | { ok: false; capability: string; required: ClientCapabilities };

export function elicitAsk(params: ElicitParams, capabilities: ClientCapabilities): Ask {
  const elicitation = capabilities.elicitation;
  if (params.mode === 'url') {
    if (!isObject(elicitation) || !isObject(elicitation.url)) return { ok: false, capability: 'elicitation.url', required: { elicitation: { url: {} } } };
    if (!URL.canParse(params.url))
      throw new DecorumUsageError(UsageErrorCode.INVALID_ASK, `ctx.elicit: url mode needs a valid absolute URL (got ${JSON.stringify(params.url)})`);
    return { ok: true, request: { method: 'elicitation/create', params: { mode: 'url', message: params.message, url: params.url } } };
  }
  // `elicitation: {}` means form only; an explicit `url` without `form` does not offer forms.
  const formOk = isObject(elicitation) && (isObject(elicitation.form) || !isObject(elicitation.url));
  if (!formOk) return { ok: false, capability: 'elicitation.form', required: { elicitation: { form: {} } } };
  const schema = toRequestedSchema(params.requestedSchema);
  return { ok: true, request: { method: 'elicitation/create', params: { mode: 'form', message: params.message, requestedSchema: schema } }, schema };
}

export function sampleAsk(params: CreateMessageParams, capabilities: ClientCapabilities): Ask {
  const sampling = capabilities.sampling;
  if (!isObject(sampling)) return { ok: false, capability: 'sampling', required: { sampling: {} } };
  if ((params.tools !== undefined || params.toolChoice !== undefined) && !isObject(sampling.tools))
    return { ok: false, capability: 'sampling.tools', required: { sampling: { tools: {} } } };
  if (params.includeContext !== undefined && params.includeContext !== 'none' && !isObject(sampling.context)) {
    return { ok: false, capability: 'sampling.context', required: { sampling: { context: {} } } };
  }
  return { ok: true, request: { method: 'sampling/createMessage', params } };
}

export function rootsAsk(capabilities: ClientCapabilities): Ask {
  if (!isObject(capabilities.roots)) return { ok: false, capability: 'roots', required: { roots: {} } };
  return { ok: true, request: { method: 'roots/list' } };
}

/**
 * An ask the client cannot take: `undefined` for an optional ask, else -32021 (which a legacy
 * session reports as -32602). `where` says where the capabilities were declared.
 */
export function missingCapability(ask: Extract<Ask, { ok: false }>, options: InputOptions | undefined, where: string): undefined {
  if (options?.optional) return undefined;
  throw new MissingRequiredClientCapabilityError(`This request needs the client capability "${ask.capability}", which ${where} did not declare`, ask.required);
}

const ACTIONS = new Set(['accept', 'decline', 'cancel']);

/** True for something shaped like an ElicitResult. */
export function isElicitAnswer(answer: unknown): answer is { action: 'accept' | 'decline' | 'cancel'; content?: unknown } {
  return isObject(answer) && typeof answer.action === 'string' && ACTIONS.has(answer.action);
}

/** True for something shaped like a CreateMessageResult. */
export function isSampleAnswer(answer: unknown): boolean {
  return (
    isObject(answer) &&
    typeof answer.model === 'string' &&
    (answer.role === 'user' || answer.role === 'assistant') &&
    typeof answer.content === 'object' &&
    answer.content !== null
  );
}

/** True for something shaped like a ListRootsResult. */
export function isRootsAnswer(answer: unknown): answer is { roots: unknown[] } {
  return isObject(answer) && Array.isArray(answer.roots) && answer.roots.every((r) => isObject(r) && typeof r.uri === 'string');
}
