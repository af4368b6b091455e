import { ClientUsageError } from '../errors.js';

/**
 * Host-assigned server names (HC-01): letters, digits and `-`, 1–32 characters — never `_`.
 * That is the whole rule that keeps namespacing reversible: `<server>_<name>` splits at its
 * FIRST `_`, and since a server name cannot contain one, everything after it is the server's own
 * name, whatever `_`s it holds (`github_search_issues` → `github` + `search_issues`). A server
 * therefore cannot list a name that routes to another server: whatever it lists, its own prefix
 * comes first (a tool `docs_search` on server `evil` is `evil_docs_search`, routed to `evil`).
 */
export const SERVER_NAME = /^[A-Za-z0-9-]{1,32}$/;
export const SEPARATOR = '_';

/** Throws unless `name` may name a server in the host. */
export function checkServerName(name: string): void {
  if (!SERVER_NAME.test(name)) {
    throw new ClientUsageError(
      `Server name ${JSON.stringify(name)} is not allowed: use 1–32 letters, digits or "-" (no "_": it separates the server from the tool in namespaced names)`,
    );
  }
}

/** `<server>_<name>`. */
export function namespaced(server: string, name: string): string {
  return `${server}${SEPARATOR}${name}`;
}

/** The server and its own name, split at the first `_`; undefined when there is no `_` or no server. */
export function splitNamespaced(name: string): { server: string; name: string } | undefined {
  const at = name.indexOf(SEPARATOR);
  if (at <= 0) return undefined;
  return { server: name.slice(0, at), name: name.slice(at + 1) };
}
