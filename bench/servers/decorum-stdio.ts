/** What `mcp-serve` serves over stdio for the bench: the bench tools only. */
export { BenchServer } from './decorum-tools.js';
