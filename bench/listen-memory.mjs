#!/usr/bin/env node
/**
 * Memory cost of idle `subscriptions/listen` streams over HTTP (issues #5 and #8). A Fastify
 * server with one MCP endpoint runs in a child process: Decorum's mcpPlugin, or for comparison the
 * official SDK v2's createMcpHandler. This process opens LISTEN_STREAMS [1000] listens from
 * 127.0.0.1, waits for every acknowledgement, asks the server for its memory (after a GC), has it
 * publish one tools/list change and waits until every stream has received it, closes them all,
 * and times how long the server takes to drop every subscriber. Needs a build (`npm run build`).
 *
 *   node bench/listen-memory.mjs [decorum|sdk] [--json]
 *   LISTEN_STREAMS=10000 node bench/listen-memory.mjs sdk
 *
 * Prints a small table, or with --json one line of JSON (what `npm run bench` reads).
 *
 * Every stream is a connection of its own: an HTTP/1.1 connection carries one response at a time
 * and a listen's response lasts as long as the subscription, so streams cannot share keep-alive
 * connections. Each stream therefore holds a socket in both processes; when the soft limit on
 * open files is too low for that and the hard limit allows more, the script runs itself again
 * under `ulimit -n`.
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get, listen, rerunWithOpenFiles } from './listen-client.mjs';
import { fileURLToPath } from 'node:url';
import { pingServerClass } from './ping-server.mjs';

const STREAMS = Number(process.env.LISTEN_STREAMS ?? 1000);
const SELF = fileURLToPath(import.meta.url);
/** Streams opened at a time: enough to be quick, few enough not to overrun the listen backlog. */
const BATCH = 100;
const FAN_OUT_TIMEOUT_MS = 60_000;
const CLOSE_TIMEOUT_MS = 60_000;

// ---------------------------------------------------------------------------------------------
// The servers (child process)

/** One server with one tool, mounted at POST /mcp; `change()` publishes a tools/list change. */
const SERVERS = {
  decorum: {
    label: 'Decorum (mcpPlugin)',
    async mount() {
      const { default: Fastify } = await import('fastify');
      const { mcpPlugin } = await import('@decorum/fastify');
      const Live = await pingServerClass('listen-bench');
      const app = Fastify({ logger: false });
      await app.register(mcpPlugin, { servers: [Live], requestLogLevel: false, sseKeepAliveMs: 15_000 });
      const live = () => app.mcpServers.get('/mcp').live;
      return {
        app,
        change: () => {
          live().tools.disable('ping');
          live().tools.enable('ping');
        },
        subscribers: () => live().bus.size,
      };
    },
  },
  sdk: {
    label: `SDK v2 (createMcpHandler + toNodeHandler, createMcpFastifyApp; maxSubscriptions ${STREAMS.toLocaleString('en-US')})`,
    async mount() {
      const { createMcpFastifyApp } = await import('@modelcontextprotocol/fastify');
      const { createMcpHandler, McpServer } = await import('@modelcontextprotocol/server');
      const { toNodeHandler } = await import('@modelcontextprotocol/node');
      const factory = () => {
        const server = new McpServer({ name: 'listen-bench', version: '1.0.0' });
        server.registerTool('ping', { description: 'pong' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
        return server;
      };
      // The SDK refuses listens beyond maxSubscriptions (1024 by default); the keep-alive is its default, as Decorum's above.
      const handler = createMcpHandler(factory, {
        maxSubscriptions: STREAMS,
        keepAliveMs: 15_000,
        onerror: (error) => process.stderr.write(`sdk: ${error.message}\n`),
      });
      const handle = toNodeHandler(handler);
      const app = createMcpFastifyApp({ host: '127.0.0.1' });
      app.post('/mcp', async (req, reply) => {
        reply.hijack();
        await handle(req.raw, reply.raw, req.body);
      });
      return { app, change: () => handler.notify.toolsChanged(), subscribers: () => handler.bus.listenerCount };
    },
  },
};

/** The peak resident set of this process (VmHWM), in bytes. */
function peakRss() {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

async function serve(target) {
  const { app, change, subscribers } = await SERVERS[target].mount();
  app.get('/memory', async () => {
    globalThis.gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    return { rss, heapUsed, peakRss: peakRss(), subscribers: subscribers() };
  });
  app.post('/change', async () => {
    change();
    return {};
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  process.once('disconnect', () => process.exit(0)); // ends with the measuring process, however that ends
  process.send({ port: app.server.address().port });
}

// ---------------------------------------------------------------------------------------------
// The client (this process)

/** Runs the measurement against one server; returns the numbers (bytes, milliseconds). */
async function measure(target) {
  const server = fork(SELF, ['--server', target], { execArgv: ['--expose-gc'], stdio: ['ignore', 2, 2, 'ipc'] });
  try {
    const { port } = await new Promise((resolve, reject) => {
      server.once('message', resolve);
      server.once('exit', (code, signal) => reject(new Error(`the ${target} server exited (${code ?? signal}) before it listened`)));
    });
    const baseline = await get(port, '/memory');
    const started = performance.now();
    const streams = [];
    for (let i = 0; i < STREAMS; i += BATCH)
      streams.push(...(await Promise.all(Array.from({ length: Math.min(BATCH, STREAMS - i) }, (_, j) => listen(port, i + j)))));
    const openMs = performance.now() - started;
    const open = await get(port, '/memory');
    if (open.subscribers !== STREAMS) throw new Error(`the server counts ${open.subscribers} subscribers with ${STREAMS} streams open`);

    const fanOut = performance.now();
    await get(port, '/change', 'POST');
    let timer;
    const late = new Promise(
      (_, reject) =>
        (timer = setTimeout(() => reject(new Error(`not every stream got the tools/list change within ${FAN_OUT_TIMEOUT_MS / 1000} s`)), FAN_OUT_TIMEOUT_MS)),
    );
    await Promise.race([Promise.all(streams.map((s) => s.changed)), late]);
    clearTimeout(timer);
    const fanOutMs = performance.now() - fanOut;

    // Closing is measured until the server has let go of every subscriber (or gives up after a minute).
    const closing = performance.now();
    for (const s of streams) s.close();
    let after;
    do {
      await new Promise((r) => setTimeout(r, 50));
      after = await get(port, '/memory');
    } while (after.subscribers > 0 && performance.now() - closing < CLOSE_TIMEOUT_MS);
    const closeMs = performance.now() - closing;
    return { target, label: SERVERS[target].label, streams: STREAMS, baseline, open, openMs, fanOutMs, closeMs, subscribersAfterClose: after.subscribers };
  } finally {
    server.kill();
  }
}

function table(r) {
  const mib = (n) => (n / 2 ** 20).toFixed(1);
  return [
    '| server | streams | RSS before (MiB) | RSS with the streams open (MiB) | per stream (KiB RSS) | per stream (KiB heap) | peak RSS (MiB) | open+ack (ms) | fan-out of one change (ms) | close (ms) | subscribers after close |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${r.label} | ${r.streams} | ${mib(r.baseline.rss)} | ${mib(r.open.rss)} | ${((r.open.rss - r.baseline.rss) / r.streams / 1024).toFixed(1)} | ${((r.open.heapUsed - r.baseline.heapUsed) / r.streams / 1024).toFixed(1)} | ${mib(r.open.peakRss)} | ${r.openMs.toFixed(0)} | ${r.fanOutMs.toFixed(0)} | ${r.closeMs.toFixed(0)} | ${r.subscribersAfterClose} |`,
  ].join('\n');
}

async function main() {
  const target = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'decorum';
  if (!SERVERS[target]) throw new Error(`unknown server ${target}; one of ${Object.keys(SERVERS).join(', ')}`);
  if (rerunWithOpenFiles(STREAMS + 256, SELF)) return; // a socket per stream, plus what Node itself keeps open
  const result = await measure(target);
  process.stdout.write(process.argv.includes('--json') ? `${JSON.stringify(result)}\n` : `${table(result)}\n`);
  process.exit(0); // the closed streams' sockets need not linger
}

if (process.argv.includes('--server')) await serve(process.argv[process.argv.indexOf('--server') + 1]);
else
  await main().catch((error) => {
    process.stderr.write(`listen-memory: ${error?.stack ?? error}\n`);
    process.exit(1);
  });
