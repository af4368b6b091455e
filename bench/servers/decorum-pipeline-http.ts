/**
 * Decorum over HTTP with the request pipeline in use: three server-level middlewares around every
 * request and OpenTelemetry on (its default, the global providers) with no SDK registered — what
 * an instrumented app costs before it exports anything. Serves the tools/call workloads only.
 * Prints `READY <port>`.
 */
import Fastify from 'fastify';
import { mcpPlugin } from '@decorum/fastify';
import type { Middleware } from '@decorum/core';
import { BenchServer } from './decorum-tools.js';
import { listenAndAnnounce } from './announce.js';

let calls = 0;
let slowest = 0;
/** Counts requests (a typical metrics middleware). */
const counting: Middleware = (_call, next) => {
  calls++;
  return next();
};
/** Times the rest of the chain (a typical latency middleware). */
const timing: Middleware = async (_call, next) => {
  const started = performance.now();
  try {
    return await next();
  } finally {
    slowest = Math.max(slowest, performance.now() - started);
  }
};
/** Looks at the target and the caller (a typical audit middleware). */
const auditing: Middleware = (call, next) => {
  if (call.target === undefined && calls < 0) throw new Error(`unreachable ${slowest}`);
  return next();
};

// The process is this server's own, so it is tuned as serveHttp tunes it (mcpPlugin leaves the process
// alone). A tree from before #49 has no transport kit: its mcpPlugin tuned the process itself.
const kit = await import('@decorum/transport-kit').catch(() => undefined);
kit?.keepTickShape();
kit?.raiseMallocTrimThreshold();
const app = Fastify({ logger: false });
await app.register(mcpPlugin, { servers: [BenchServer], path: '/mcp', requestLogLevel: false, middleware: [counting, timing, auditing] });
await listenAndAnnounce(app);
