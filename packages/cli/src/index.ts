/** @decorum/cli — the `mcp-serve` runner, also usable programmatically. */
export { loadModule, CliError } from './load-module.js';
export { collectServers } from './collect-servers.js';
export { collectServeOptions } from './serve-options.js';
export { buildProgram, type ServeOptions } from './program.js';
export { swcOptions } from './ts-loader/swc-options.js';
