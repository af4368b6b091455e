/**
 * Who may reach a legacy task (L§Security Considerations): with an authenticated caller, the
 * principal that created it; without one, the session that created it. A task out of reach is
 * answered exactly like an unknown one, so ids of others' tasks cannot be probed.
 */
import type { PipelineCall } from '../../../pipeline/call.js';
import type { TaskRecord } from '../task-store.js';

/** The caller of a legacy `tasks/*` or task-augmented `tools/call`. */
export interface LegacyRequestor {
  /** The verified principal; `undefined` without authentication. */
  readonly owner: string | undefined;
  /** The legacy session (HTTP: its `Mcp-Session-Id`; stdio: the process's one session on this instance). */
  readonly session: string;
}

/** The requestor of `call`; `instanceId` names stdio's one session (it has no id on the wire). */
export function legacyRequestor(call: PipelineCall, instanceId: string): LegacyRequestor {
  return { owner: call.auth?.principal, session: call.sessionId ?? `stdio:${instanceId}` };
}

/** True when `requestor` may see `record`: a legacy task of its principal, or (without one) of its session. */
export function mayReach(record: TaskRecord, requestor: LegacyRequestor): boolean {
  if (record.era === 'modern') return false;
  if (record.owner !== undefined || requestor.owner !== undefined) return record.owner === requestor.owner;
  return record.session === requestor.session;
}
