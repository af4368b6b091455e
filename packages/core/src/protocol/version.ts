/** The MCP revision this framework speaks. */
export const LATEST_PROTOCOL_VERSION = '2026-07-28';

/** Every revision a Decorum server accepts in `_meta`, newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([LATEST_PROTOCOL_VERSION]);
