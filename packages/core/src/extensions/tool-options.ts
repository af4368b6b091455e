import type { ToolEntry } from '../registry/entries.js';

/** What each tool's extension options checked to at start-up (or at `live.add`), by key. */
const checkedOptions = new WeakMap<ToolEntry, ReadonlyMap<string, unknown>>();

/** Records what `tool`'s options checked to (extension-set.ts). */
export function recordToolOptions(tool: ToolEntry, values: ReadonlyMap<string, unknown>): void {
  checkedOptions.set(tool, values);
}

/**
 * The value an extension's `toolOptions[key]` check returned for `tool` at start-up (Tasks:
 * `toolOption(tool, 'task')`); `undefined` when the tool does not carry that option.
 */
export function toolOption<T = unknown>(tool: ToolEntry, key: string): T | undefined {
  return checkedOptions.get(tool)?.get(key) as T | undefined;
}
