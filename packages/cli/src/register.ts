/**
 * `node --import @decorum/cli/register src/app.ts`: runs your own TypeScript entry point (a Fastify
 * app that mounts `mcpPlugin`, a script that calls `serveStdio`) through the same swc hooks as
 * `mcp-serve`, so decorator metadata (`design:*`) survives, and with source maps on, so stack traces
 * name `.ts` lines. Works with `node --watch`.
 *
 * @module \@decorum/cli/register
 */
import 'reflect-metadata';
import { registerTsHooks } from './ts-loader/register-hooks.js';

registerTsHooks();
