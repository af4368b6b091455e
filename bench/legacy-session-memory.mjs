#!/usr/bin/env node
/**
 * Memory per idle legacy (2025-11-25) session over HTTP. A Fastify server with Decorum's mcpPlugin
 * runs in a child process; this process opens LEGACY_SESSIONS [10000] sessions (initialize +
 * notifications/initialized, over a few keep-alive connections), asks the server for its memory
 * after a GC before and after, and reports the heap and RSS per session. Then it ends every session
 * with DELETE and checks that the server holds none. Needs a build (`npm run build`).
 *
 *   LEGACY_SESSIONS=10000 node bench/legacy-session-memory.mjs [--json]
 */
import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { pingServerClass } from './ping-server.mjs';

const SESSIONS = Number(process.env.LEGACY_SESSIONS ?? 10_000);
const CONNECTIONS = 8;
const PROTOCOL = '2025-11-25';

async function serve() {
  const { default: Fastify } = await import('fastify');
  const { mcpPlugin } = await import('@decorum/fastify');
  const Idle = await pingServerClass('legacy-session-bench');
  const app = Fastify({ logger: false });
  await app.register(mcpPlugin, { servers: [Idle], requestLogLevel: false, legacySessions: { maxSessions: SESSIONS + 10 } });
  app.get('/memory', async () => {
    globalThis.gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    return { rss, heapUsed };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  process.once('disconnect', () => process.exit(0));
  process.send({ port: app.server.address().port });
}

const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });

function http(port, method, path, headers = {}, body) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers, agent }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function openSession(port) {
  const init = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  };
  const res = await http(port, 'POST', '/mcp', JSON_HEADERS, JSON.stringify(init));
  const id = res.headers['mcp-session-id'];
  if (res.status !== 200 || !id) throw new Error(`initialize failed: HTTP ${res.status} ${res.text.slice(0, 200)}`);
  const done = await http(
    port,
    'POST',
    '/mcp',
    { ...JSON_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': PROTOCOL },
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  );
  if (done.status !== 202) throw new Error(`initialized failed: HTTP ${done.status}`);
  return id;
}

async function inBatches(items, fn) {
  const out = [];
  for (let i = 0; i < items.length; i += CONNECTIONS * 4) out.push(...(await Promise.all(items.slice(i, i + CONNECTIONS * 4).map(fn))));
  return out;
}

async function measure() {
  const child = fork(new URL(import.meta.url), ['--serve'], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { port } = await new Promise((resolve) => child.once('message', resolve));
  const memory = async () => JSON.parse((await http(port, 'GET', '/memory')).text);
  try {
    // Warm the code paths with a few sessions first, so the baseline does not count compiled code.
    for (const id of await inBatches([...Array(100).keys()], () => openSession(port))) await http(port, 'DELETE', '/mcp', { 'mcp-session-id': id });
    const before = await memory();
    const started = performance.now();
    const ids = await inBatches([...Array(SESSIONS).keys()], () => openSession(port));
    const openMs = performance.now() - started;
    const after = await memory();
    const statuses = await inBatches(ids, async (id) => (await http(port, 'DELETE', '/mcp', { 'mcp-session-id': id })).status);
    const deleted = statuses.filter((s) => s === 200).length;
    const cleared = await memory();
    return {
      sessions: SESSIONS,
      openMs,
      heapPerSession: (after.heapUsed - before.heapUsed) / SESSIONS,
      rssPerSession: (after.rss - before.rss) / SESSIONS,
      heapAfter: after.heapUsed,
      rssAfter: after.rss,
      deleted,
      heapAfterDelete: cleared.heapUsed,
    };
  } finally {
    agent.destroy();
    child.kill();
  }
}

if (process.argv.includes('--serve')) {
  await serve();
} else {
  const r = await measure();
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(r)}\n`);
  else {
    const kb = (b) => `${(b / 1024).toFixed(2)} KiB`;
    const mb = (b) => `${(b / 1024 / 1024).toFixed(1)} MiB`;
    process.stdout.write(
      [
        `| idle legacy sessions | opened in | heap per session | RSS per session | heap / RSS with all open | ended by DELETE | heap after |`,
        `| ---: | ---: | ---: | ---: | ---: | ---: | ---: |`,
        `| ${r.sessions.toLocaleString('en-US')} | ${(r.openMs / 1000).toFixed(1)} s | ${kb(r.heapPerSession)} | ${kb(r.rssPerSession)} | ${mb(r.heapAfter)} / ${mb(r.rssAfter)} | ${r.deleted.toLocaleString('en-US')} | ${mb(r.heapAfterDelete)} |`,
        '',
      ].join('\n'),
    );
  }
}
