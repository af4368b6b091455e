import type { JsonObject, ToolAnnotations } from '@decorum/core';
import { CallRefusedError } from '../errors.js';

/** A tool call the host is about to route, as `approve` sees it (show it to the user: HC-04). */
export interface ToolCall {
  /** The host's server name. */
  readonly server: string;
  /** The namespaced name the model used (`<server>_<tool>`). */
  readonly tool: string;
  /** The server's own tool name. */
  readonly name: string;
  readonly arguments: JsonObject;
  /** The tool's annotations, as the server described them (untrusted hints, T-10). */
  readonly annotations: ToolAnnotations | undefined;
  /** True when the host trusts this server's annotations (`trustAnnotations`); absent or false, they are only hints. */
  readonly annotationsTrusted?: boolean;
  readonly title?: string;
  readonly description?: string;
}

/** `approve`'s answer: yes, no, or no with a reason shown back to the caller. */
export type ApprovalAnswer = boolean | { approved: boolean; reason?: string };

/** Asks (the user) whether a call may go ahead. */
export type Approve = (call: ToolCall) => ApprovalAnswer | Promise<ApprovalAnswer>;

/**
 * Which calls need `approve`: `unless-read-only` (default: every call but those a server whose
 * annotations are trusted marks `readOnlyHint: true`), `always`, `never`, or a function deciding
 * per call. A server's annotations count only when the host trusts them (`trustAnnotations`):
 * any server can label a destructive tool read-only.
 */
export type ApprovalPolicy = 'unless-read-only' | 'always' | 'never' | ((call: ToolCall) => boolean);

/** Whether `call` must be approved by the user before it runs, under `policy`. */
export function needsApproval(call: ToolCall, policy: ApprovalPolicy): boolean {
  if (typeof policy === 'function') return policy(call);
  if (policy === 'always') return true;
  if (policy === 'never') return false;
  return !(call.annotationsTrusted === true && call.annotations?.readOnlyHint === true);
}

/**
 * Consults `approve` when the policy asks for it; a refusal (or no hook at all) throws
 * {@link CallRefusedError} before anything is sent to the server.
 */
export async function checkApproval(call: ToolCall, policy: ApprovalPolicy, approve: Approve | undefined): Promise<void> {
  if (!needsApproval(call, policy)) return;
  if (!approve) throw new CallRefusedError(call.tool, 'it needs approval and the host has no approve hook');
  const answer = await approve(call);
  const approved = typeof answer === 'boolean' ? answer : answer.approved;
  if (!approved) throw new CallRefusedError(call.tool, typeof answer === 'object' ? answer.reason : 'the user declined');
}
