/**
 * `@Tool({ task })` checked and filled in at start-up: what a task tool's calls get (support, TTL,
 * poll interval, where the task starts). A bad value fails start-up naming the tool.
 */
import { DecorumStartupError, StartupErrorCode } from '../../errors/startup-error.js';
import { isJsonObject } from '../../protocol/json-object.js';
import type { TaskSettings } from './task-settings.js';

/** A tool's task support, with every default applied. */
export interface TaskSupport {
  readonly support: 'optional' | 'required';
  /** Lifetime from creation (`null`: unlimited). */
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  readonly start: 'immediate' | 'handler';
  /** Whether another instance may replay the handler when the one running it stopped while it waited. */
  readonly resumable: boolean;
}

const SUPPORTS = new Set(['optional', 'required']);
const STARTS = new Set(['immediate', 'handler']);
const KEYS = new Set(['support', 'ttlMs', 'pollIntervalMs', 'start', 'resumable']);

/** Checks a tool's `task` option against the server's settings; `undefined` when the tool is never a task. */
export function checkTaskOption(value: unknown, toolName: string, settings: TaskSettings): TaskSupport | undefined {
  if (value === undefined) return undefined;
  const bad = (why: string) =>
    new DecorumStartupError(
      StartupErrorCode.INVALID_OPTION,
      `@Tool "${toolName}": task ${why}; use 'optional', 'required' or { support, ttlMs?, pollIntervalMs?, start?, resumable? }`,
    );
  if (typeof value === 'string') {
    if (!SUPPORTS.has(value)) throw bad(`is ${JSON.stringify(value)}`);
    return {
      support: value as TaskSupport['support'],
      ttlMs: settings.defaultTtlMs,
      pollIntervalMs: settings.pollIntervalMs,
      start: 'immediate',
      resumable: false,
    };
  }
  if (!isJsonObject(value)) throw bad(`is ${typeof value}`);
  const unknown = Object.keys(value).filter((key) => !KEYS.has(key));
  if (unknown.length > 0) throw bad(`has unknown key(s) ${unknown.join(', ')}`);
  if (!SUPPORTS.has(value.support as string)) throw bad(`.support is ${JSON.stringify(value.support)}`);
  if (value.start !== undefined && !STARTS.has(value.start as string)) throw bad(`.start is ${JSON.stringify(value.start)} (one of 'immediate', 'handler')`);
  if (value.resumable !== undefined && typeof value.resumable !== 'boolean') throw bad(`.resumable is ${JSON.stringify(value.resumable)} (a boolean)`);
  if (value.resumable === true && value.start === 'handler')
    throw bad(`.resumable needs start 'immediate' (a replay cannot redo the MRTR rounds before startTask)`);
  const ttlMs = value.ttlMs ?? settings.defaultTtlMs;
  if (ttlMs !== null && !(Number.isSafeInteger(ttlMs) && (ttlMs as number) > 0))
    throw bad(`.ttlMs is ${JSON.stringify(value.ttlMs)} (a positive integer of ms)`);
  if (ttlMs !== null && settings.maxTtlMs !== null && (ttlMs as number) > settings.maxTtlMs)
    throw bad(`.ttlMs ${String(ttlMs)} is above the server's maxTtlMs ${settings.maxTtlMs}`);
  const pollIntervalMs = value.pollIntervalMs ?? settings.pollIntervalMs;
  if (!(Number.isSafeInteger(pollIntervalMs) && (pollIntervalMs as number) > 0))
    throw bad(`.pollIntervalMs is ${JSON.stringify(value.pollIntervalMs)} (a positive integer of ms)`);
  return {
    support: value.support as TaskSupport['support'],
    ttlMs: ttlMs as number | null,
    pollIntervalMs: pollIntervalMs as number,
    start: (value.start as TaskSupport['start'] | undefined) ?? 'immediate',
    resumable: value.resumable === true,
  };
}
