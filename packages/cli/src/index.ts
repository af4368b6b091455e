/** @decorum/cli — the `mcp-serve` runner, also usable programmatically. */
export { loadModule, CliError } from './load-module.js';
export { collectServers } from './collect-servers.js';
export { collectCatalogue, CATALOGUE_EXPORT } from './collect-catalogue.js';
export { buildProgram, type ServeOptions } from './program.js';
export { swcOptions } from './ts-loader/swc-options.js';
