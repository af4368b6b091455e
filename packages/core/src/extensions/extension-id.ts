import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';

// A `_meta`-style id: reverse-DNS labels (letter first, letter or digit last), a slash, a name.
const ID = /^(?:[a-zA-Z](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?\.)+[a-zA-Z](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?\/[a-zA-Z0-9](?:[a-zA-Z0-9._-]*[a-zA-Z0-9])?$/;

/** The id prefixes MCP keeps for its own extensions: a second label `modelcontextprotocol` or `mcp`. */
function isReserved(id: string): boolean {
  const second = id.slice(0, id.indexOf('/')).split('.')[1];
  return second === 'modelcontextprotocol' || second === 'mcp';
}

/** Checks an extension id (`com.example/echo`); a reserved prefix (`io.modelcontextprotocol/`) only for a built-in. */
export function checkExtensionId(id: unknown, builtIn: boolean): string {
  if (typeof id !== 'string' || !ID.test(id))
    throw new DecorumStartupError(
      StartupErrorCode.INVALID_EXTENSION,
      `extension id ${JSON.stringify(id)} is not a reverse-DNS prefix, a slash and a name (like "com.example/echo")`,
    );
  if (isReserved(id) && !builtIn)
    throw new DecorumStartupError(
      StartupErrorCode.INVALID_EXTENSION,
      `extension id "${id}" uses a prefix MCP reserves for its own extensions; use your own domain`,
    );
  return id;
}
