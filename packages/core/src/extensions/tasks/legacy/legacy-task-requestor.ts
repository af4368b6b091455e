/**
 * Who may reach a legacy task (L§Security Considerations): with an authenticated caller, the
 * principal that created it (`ownerOf`, as on 2026-07-28); without one, the session that created
 * it. A task out of reach is answered exactly like an unknown one, so ids of others' tasks cannot
 * be probed.
 */
import { randomUUID } from 'node:crypto';
import { SessionAskSeam, type AskingSession } from '../../../asks/session/session-asks.js';
import type { PipelineCall } from '../../../pipeline/call.js';
import { ownerOf } from '../task-owner.js';
import type { TaskRecord } from '../task-store.js';

/** The caller of a legacy `tasks/*` or task-augmented `tools/call`. */
export interface LegacyRequestor {
  /** The verified principal; `undefined` without authentication. */
  readonly owner: string | undefined;
  /** The legacy session (HTTP: its `Mcp-Session-Id`; stdio, which has no id on the wire: one of ours); `undefined` outside one. */
  readonly session: string | undefined;
}

/** Ids of sessions the wire does not name (stdio's one session), made on first use. */
const unnamed = new WeakMap<AskingSession, string>();

/** The session `call` came on: its transport id, else an id of ours for its session object. */
export function legacySessionOf(call: PipelineCall): string | undefined {
  if (call.sessionId !== undefined) return call.sessionId;
  const seam = (call as { readonly asks?: unknown }).asks;
  if (!(seam instanceof SessionAskSeam)) return undefined;
  let id = unnamed.get(seam.session);
  if (id === undefined) unnamed.set(seam.session, (id = `unnamed:${randomUUID()}`));
  return id;
}

export function legacyRequestor(call: PipelineCall): LegacyRequestor {
  return { owner: ownerOf(call.auth), session: legacySessionOf(call) };
}

/** True when `requestor` may see `record`: a legacy task of its principal, or (without one) of its session. */
export function mayReach(record: TaskRecord, requestor: LegacyRequestor): boolean {
  if (record.era === 'modern') return false;
  if (record.owner !== undefined || requestor.owner !== undefined) return record.owner === requestor.owner;
  return record.session !== undefined && record.session === requestor.session;
}
