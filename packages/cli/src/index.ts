/**
 * @decorum/cli — the `mcp-serve` runner. What you call is the command (`mcp-serve MODULE`, see
 * the README) and `node --import @decorum/cli/register` for your own TypeScript entry point;
 * from code, only the command line itself: {@link buildProgram} parses an `mcp-serve` command
 * line into {@link McpServeOptions} and hands them to your function.
 *
 * @module \@decorum/cli
 */
export { buildProgram, type McpServeOptions } from './program.js';
export type { InstallOptions } from './install/install.js';
