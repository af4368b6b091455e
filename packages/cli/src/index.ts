/**
 * @decorum/cli — the `mcp-serve` runner, also usable programmatically.
 *
 * @module \@decorum/cli
 */
export { loadModule, CliError } from './load-module.js';
export { collectServers } from './collect-servers.js';
export { collectServeOptions } from './serve-options.js';
export { buildProgram, type McpServeOptions } from './program.js';
export { swcOptions } from './ts-loader/swc-options.js';
export { previewLists, formatPreview, printList, type ListPreview } from './list-preview.js';
export { watchModule, type WatchOptions, type WatchedModule } from './watch.js';
export { installServer, type InstallOptions } from './install/install.js';
