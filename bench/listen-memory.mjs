#!/usr/bin/env node
/**
 * Memory cost of idle `subscriptions/listen` streams on HTTP (issue #5): a Fastify server with
 * @decorum/fastify in a child process; this process opens LISTEN_STREAMS [1000] listens, waits
 * for every acknowledgement, asks the server for its memory (after a GC), closes them all, and
 * asks again. Needs a build (`npx tsc -b tsconfig.build.json`). Prints a small table.
 *
 *   node bench/listen-memory.mjs            # LISTEN_STREAMS=5000 node bench/listen-memory.mjs
 */
import { fork } from 'node:child_process';
import { request } from 'node:http';

const STREAMS = Number(process.env.LISTEN_STREAMS ?? 1000);
const PROTOCOL = '2026-07-28';

async function serve() {
  const { default: Fastify } = await import('fastify');
  const { Tool, McpServer } = await import('@decorum/core');
  const { mcpPlugin } = await import('@decorum/fastify');
  class Live {
    ping() {
      return 'pong';
    }
  }
  McpServer({ name: 'listen-bench', version: '1.0.0' })(Live);
  Tool({ input: null })(Live.prototype, 'ping', Object.getOwnPropertyDescriptor(Live.prototype, 'ping'));
  const app = Fastify({ logger: false });
  await app.register(mcpPlugin, { servers: [Live], requestLogLevel: false, sseKeepAliveMs: 15_000 });
  app.get('/memory', async () => {
    globalThis.gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    return { rss, heapUsed, subscribers: app.mcpServers.get('/mcp').live.bus.size };
  });
  app.post('/change', async () => {
    const { live } = app.mcpServers.get('/mcp');
    live.tools.disable('ping');
    live.tools.enable('ping');
    return {};
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  process.send({ port: app.server.address().port });
}

function get(port, path, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, agent: false }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve(JSON.parse(text)));
    });
    req.on('error', reject);
    req.end();
  });
}

function listen(port, id) {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: { 'io.modelcontextprotocol/protocolVersion': PROTOCOL, 'io.modelcontextprotocol/clientCapabilities': {} } } });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL, 'mcp-method': 'subscriptions/listen' };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers, agent: false }, (res) => {
      let text = '';
      let events = 0;
      const stream = { close: () => req.destroy(), events: () => events, changed: undefined };
      stream.changed = new Promise((changed) => {
        res.on('data', (c) => {
          text += c;
          events = (text.match(/\n\n/g) ?? []).length;
          if (events === 1) resolve(stream);
          if (events >= 2) changed();
        });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function main() {
  const child = fork(new URL(import.meta.url), ['--server'], { execArgv: ['--expose-gc'] });
  const { port } = await new Promise((resolve) => child.once('message', resolve));
  const before = await get(port, '/memory');
  const started = performance.now();
  const streams = [];
  for (let i = 0; i < STREAMS; i += 100) streams.push(...(await Promise.all(Array.from({ length: Math.min(100, STREAMS - i) }, (_, j) => listen(port, i + j)))));
  const openMs = performance.now() - started;
  const held = await get(port, '/memory');
  const fanOut = performance.now();
  await get(port, '/change', 'POST');
  await Promise.all(streams.map((s) => s.changed));
  const fanOutMs = performance.now() - fanOut;
  for (const s of streams) s.close();
  let after;
  for (let i = 0; i < 100; i++) {
    after = await get(port, '/memory');
    if (after.subscribers === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const mib = (n) => (n / 1024 / 1024).toFixed(1);
  console.log(`| streams | open+ack (ms) | fan-out of one change (ms) | heap held (MiB) | per stream (KiB heap) | rss held (MiB) | subscribers after close |`);
  console.log(`|---:|---:|---:|---:|---:|---:|---:|`);
  console.log(`| ${STREAMS} | ${openMs.toFixed(0)} | ${fanOutMs.toFixed(0)} | ${mib(held.heapUsed - before.heapUsed)} | ${((held.heapUsed - before.heapUsed) / STREAMS / 1024).toFixed(1)} | ${mib(held.rss - before.rss)} | ${after.subscribers} |`);
  child.kill();
}

if (process.argv.includes('--server')) await serve();
else await main();
