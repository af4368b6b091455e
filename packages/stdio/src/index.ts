/**
 * @decorum/stdio — the stdio transport of Decorum: newline-delimited JSON-RPC over
 * stdin/stdout (stdout carries nothing else), logs on stderr.
 *
 * @module \@decorum/stdio
 */
export { serveStdio, type ServeStdioOptions, type StdioServer } from './stdio-server.js';
