/**
 * L0, the limit: a plain Fastify route per endpoint that parses the JSON body (Fastify's own
 * parser) and answers a fixed JSON-RPC result of the same bytes Decorum answers. The bodies come
 * from the JSON file named by argv[2]: `{ "/mcp:add_dto": "...", "/list-50": "...", ... }`, keyed
 * by path and, for tools/call, tool name. Prints `READY <port>`.
 *
 * `--busy-us=N` (the calibration target): each request first keeps the CPU busy for N µs, as a
 * server's own work would, so the bench shows what N µs per request cost against L0.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { listenAndAnnounce } from './announce.js';

const texts = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Record<string, string>;
// The answers are bytes made once at start-up, as a server that serializes nothing per request would send.
const bodies = Object.fromEntries(Object.entries(texts).map(([key, text]) => [key, Buffer.from(text)]));
const busyMs = Number(/^--busy-us=(\d+(?:\.\d+)?)$/.exec(process.argv[3] ?? '')?.[1] ?? 0) / 1000;
const app = Fastify({ logger: false, bodyLimit: 4 * 1024 * 1024 });
const paths = new Set(Object.keys(bodies).map((key) => key.split(':')[0]!));

for (const path of paths) {
  app.post(path, async (request, reply) => {
    if (busyMs > 0) for (const start = performance.now(); performance.now() - start < busyMs;);
    const body = request.body as { params?: { name?: string } };
    const answer = bodies[body.params?.name === undefined ? path : `${path}:${body.params.name}`] ?? bodies[path];
    return reply.type('application/json; charset=utf-8').send(answer);
  });
}
await listenAndAnnounce(app);
