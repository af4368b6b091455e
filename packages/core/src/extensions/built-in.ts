import type { ToolEntry } from '../registry/entries.js';
import type { Extension } from './extension.js';
import { builtInTasks } from './tasks/tasks-extension.js';

/**
 * A built-in extension's factory: `createServer` asks each with the tools it scanned (the
 * served classes'; a `catalogue` is not scanned) and its options, and installs what it returns (before the `extensions` given) unless the list already
 * holds that id. Tasks registers here: it returns itself when a tool declares `task`.
 */
export type BuiltInExtensionFactory = (tools: readonly ToolEntry[], options: BuiltInOptions) => Extension | undefined;

/** `createServer`'s options as a factory reads them (`ServerOptions`, which lives on a floor above this one). */
export type BuiltInOptions = Readonly<Record<string, unknown>>;

/** The built-in extensions, in install order. */
export const BUILT_IN_EXTENSIONS: BuiltInExtensionFactory[] = [builtInTasks];
