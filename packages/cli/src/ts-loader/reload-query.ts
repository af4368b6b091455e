import { pathToFileURL } from 'node:url';

/** The query parameter that marks a module imported again by `mcp-serve --watch` (its value: the reload count). */
export const RELOAD_PARAM = 'decorum-reload';
/** The directory whose files are imported afresh along with the module. */
export const ROOT_PARAM = 'decorum-root';

/**
 * The URL to import `file` again with: a new URL, so ESM evaluates it afresh instead of
 * answering from its module cache. The hooks hand the same query to what it imports from `root`.
 */
export function reloadUrl(file: string, version: number, root: string): string {
  const url = pathToFileURL(file);
  url.searchParams.set(RELOAD_PARAM, String(version));
  url.searchParams.set(ROOT_PARAM, root);
  return url.href;
}
