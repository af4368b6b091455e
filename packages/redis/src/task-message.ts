import type { TaskEvent, TaskRecord } from '@decorum/core';
import { isJsonObject } from '@decorum/core/transport';

/**
 * One message on the tasks channel, as JSON: the sending store's tag (`o`, so it skips its own),
 * and a changed record (`r` its JSON without `version` and `runner`, which travel as `v`, `ri`,
 * `rl`, as the task's hash keeps them), a cancel or answered keys (`id`, `k`). A Lua script
 * composes the changed message of a claimed lease, so the record is never re-encoded there.
 */
export type TaskMessage =
  | {
      readonly o: string;
      readonly t: 'changed';
      readonly r: Omit<TaskRecord, 'version' | 'runner'>;
      readonly v: number;
      readonly ri?: string;
      readonly rl?: number;
    }
  | { readonly o: string; readonly t: 'cancel'; readonly id: string }
  | { readonly o: string; readonly t: 'answered'; readonly id: string; readonly k: readonly string[] };

/** A record as the task's hash keeps it: its JSON without version and runner. */
export function storedJson(record: TaskRecord): string {
  const { version: _version, runner: _runner, ...stored } = record;
  return JSON.stringify(stored);
}

/** The record from what the hash keeps: the stored JSON's value (`r`), `v`, `ri` and `rl`. */
export function recordOf(
  stored: Omit<TaskRecord, 'version' | 'runner'>,
  version: string | number,
  instance: string | null | undefined,
  leaseUntil: string | number | null | undefined,
): TaskRecord {
  const runner = instance ? { instance, leaseUntil: Number(leaseUntil) } : undefined;
  return runner ? { ...stored, version: Number(version), runner } : { ...stored, version: Number(version) };
}

/** The message announcing `record`, as written by the store `origin`. */
export function changedMessage(origin: string, record: TaskRecord): string {
  const runner = record.runner ? `,"ri":${JSON.stringify(record.runner.instance)},"rl":${record.runner.leaseUntil}` : '';
  return `{"o":${JSON.stringify(origin)},"t":"changed","r":${storedJson(record)},"v":${record.version}${runner}}`;
}

/** The JSON text of a cancel or answered signal. */
export function signalMessage(message: Extract<TaskMessage, { t: 'cancel' | 'answered' }>): string {
  return JSON.stringify(message);
}

/**
 * The event a message carries and who sent it; `undefined` for anything else on the channel (it
 * is then ignored, never half-applied).
 */
export function readMessage(text: string): { readonly origin: string; readonly event: TaskEvent } | undefined {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(message) || typeof message.o !== 'string') return undefined;
  const origin = message.o;
  if (message.t === 'changed' && isJsonObject(message.r) && typeof message.v === 'number') {
    const stored = message.r as Omit<TaskRecord, 'version' | 'runner'>;
    return {
      origin,
      event: { type: 'changed', record: recordOf(stored, message.v, typeof message.ri === 'string' ? message.ri : undefined, message.rl as number) },
    };
  }
  if (typeof message.id !== 'string') return undefined;
  if (message.t === 'cancel') return { origin, event: { type: 'cancel', taskId: message.id } };
  if (message.t === 'answered' && Array.isArray(message.k) && message.k.every((key) => typeof key === 'string'))
    return { origin, event: { type: 'answered', taskId: message.id, keys: message.k as string[] } };
  return undefined;
}
