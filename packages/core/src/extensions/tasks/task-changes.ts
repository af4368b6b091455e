import type { JsonObject } from '../../protocol/types.js';
import { TERMINAL_STATUSES, type TaskPatch, type TaskRecord, type TaskStatus } from './task-store.js';

// The rules of a task's changes, one function each, shared by every TaskStore: a store reads the
// record, asks one of these what it becomes, and writes that only if nobody wrote in between.
// Each answers the next record without its `version` and `lastUpdatedAt`, which the store sets.

/** What a transition expects of the record (see `TaskStore.transition`). */
export interface TransitionExpectation {
  readonly statuses?: readonly TaskStatus[];
  readonly leaseEndedBy?: number;
}

/** `record` with `patch` applied, or `undefined` when it is terminal or not as expected. Leaving `input_required` clears the asks. */
export function transitioned(record: TaskRecord, patch: TaskPatch, expect?: TransitionExpectation): TaskRecord | undefined {
  if (TERMINAL_STATUSES.has(record.status)) return undefined;
  if (expect?.statuses && !expect.statuses.includes(record.status)) return undefined;
  if (expect?.leaseEndedBy !== undefined && !((record.runner?.leaseUntil ?? Infinity) < expect.leaseEndedBy)) return undefined;
  const next = { ...record, ...structuredClone(patch) };
  return next.status !== 'input_required' && patch.inputRequests === undefined ? { ...next, inputRequests: {} } : next;
}

/**
 * The keys of `responses` that answer an outstanding ask, and the record once they are moved
 * from `inputRequests` to `answers` (`working` again when none is left); no `next` when none is taken.
 */
export function answered(record: TaskRecord, responses: Readonly<Record<string, JsonObject>>): { readonly accepted: string[]; readonly next?: TaskRecord } {
  if (record.status !== 'input_required') return { accepted: [] };
  const accepted = Object.keys(responses).filter((key) => Object.hasOwn(record.inputRequests, key));
  if (accepted.length === 0) return { accepted };
  const inputRequests = { ...record.inputRequests };
  const answers = { ...record.answers };
  for (const key of accepted) {
    delete inputRequests[key];
    answers[key] = structuredClone(responses[key]!);
  }
  const status: TaskStatus = Object.keys(inputRequests).length === 0 ? 'working' : 'input_required';
  return { accepted, next: { ...record, status, inputRequests, answers } };
}

/** `record` marked cancel-requested, or `undefined` when it is terminal or already marked. */
export function cancelRequested(record: TaskRecord): TaskRecord | undefined {
  return TERMINAL_STATUSES.has(record.status) || record.cancelRequested ? undefined : { ...record, cancelRequested: true };
}

/** Whether `list(owner, session)` shows `record`: the same owner (none for none) and, when a session is given, that session. */
export function listedFor(record: TaskRecord, owner: string | undefined, session: string | undefined): boolean {
  return record.owner === owner && (session === undefined || record.session === session);
}
