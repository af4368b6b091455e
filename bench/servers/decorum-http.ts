/** Decorum over HTTP: its Fastify plugin, one endpoint per tool set. Prints `READY <port>`. */
import Fastify from 'fastify';
import { mcpPlugin } from '@decorum/fastify';
import { BenchServer, LIST_SIZES, listServer } from './decorum-tools.js';
import { listenAndAnnounce } from './announce.js';

// The process is this server's own, so it is tuned as serveHttp tunes it (mcpPlugin leaves the process
// alone). A tree from before #49 has no transport kit: its mcpPlugin tuned the process itself.
const kit = await import('@decorum/transport-kit').catch(() => undefined);
kit?.keepTickShape();
kit?.raiseMallocTrimThreshold();
// No start-up deadline: under valgrind (bench/instructions.mjs) registering takes longer than Fastify's 10 s.
const app = Fastify({ logger: false, pluginTimeout: 0 });
await app.register(mcpPlugin, { servers: [BenchServer], path: '/mcp', requestLogLevel: false });
// The same server on its own path for the legacy workload (L0 answers per path; the SDK's stateless server has no sessions).
await app.register(mcpPlugin, { servers: [BenchServer], path: '/legacy', requestLogLevel: false });
for (const n of LIST_SIZES) {
  // One page holds every tool, as the SDK answers (Decorum's default page is 100 items).
  await app.register(mcpPlugin, { servers: [listServer(n)], path: `/list-${n}`, pageSize: 1000, requestLogLevel: false });
}
await listenAndAnnounce(app);
