import type { LiveChange, LiveEvent, LiveKind } from '@decorum/core';
import { isJsonObject as isObject } from '@decorum/core/transport';

/**
 * One message on the bus's Redis channel (and in its replay list), as JSON: who sent it (`o`, the
 * sending instance's id), its place in that instance's sequence (`s`, for de-duplication after a
 * catch-up), and either a change event to deliver (`e`) or a live change to apply (`c`).
 */
export type BusMessage = { readonly v: 1; readonly o: string; readonly s: number } & (
  { readonly e: LiveEvent; readonly c?: never } | { readonly c: LiveChange; readonly e?: never }
);

const KINDS: ReadonlySet<string> = new Set<LiveKind>(['tools', 'prompts', 'resources']);
const LIST_EVENTS: ReadonlySet<string> = new Set(['tools/list_changed', 'prompts/list_changed', 'resources/list_changed']);

const isName = (value: unknown): value is string => typeof value === 'string' && value !== '';

function isEvent(value: unknown): value is LiveEvent {
  if (!isObject(value) || typeof value.type !== 'string') return false;
  if (value.type === 'extension') return isName(value.method) && typeof value.key === 'string' && isObject(value.params);
  return LIST_EVENTS.has(value.type) || (value.type === 'resources/updated' && isName(value.uri));
}

function isChange(value: unknown, nested = false): value is LiveChange {
  if (!isObject(value)) return false;
  switch (value.op) {
    case 'enable':
    case 'disable':
    case 'remove':
      return typeof value.kind === 'string' && KINDS.has(value.kind) && isName(value.name);
    case 'add':
      return isName(value.className);
    case 'batch':
      // A batch holds single changes only (the live registry flattens nested batches).
      return !nested && Array.isArray(value.changes) && value.changes.every((c) => isChange(c, true));
    default:
      return false;
  }
}

/** The JSON text of a message. */
export function encodeMessage(message: BusMessage): string {
  return JSON.stringify(message);
}

/**
 * Reads a message from the channel; `undefined` for anything that is not one (another program
 * publishing on the channel, an older or newer format): it is then ignored, never half-applied.
 */
export function parseMessage(text: string): BusMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value) || value.v !== 1 || !isName(value.o) || !Number.isSafeInteger(value.s)) return undefined;
  if (value.e !== undefined ? isEvent(value.e) && value.c === undefined : isChange(value.c)) return value as BusMessage;
  return undefined;
}
