import Fastify from 'fastify';
import { mcpPlugin } from '@decorum/fastify';
import { WeatherServer } from "/work/wt/call/examples/weather/dist/weather.js";

const app = Fastify({ logger: true });

app.get('/health', async () => ({ ok: true })); // your routes keep working as before

await app.register(
  async (api) => {
    api.get('/status', async () => ({ up: true })); // GET /api/status
    await api.register(mcpPlugin, { servers: [WeatherServer], path: '/mcp' }); // POST /api/mcp
  },
  { prefix: '/api' },
);

await app.listen({ host: '127.0.0.1', port: 0 });

process.stderr.write(`MCP endpoint: http://127.0.0.1:${app.server.address().port}/api/mcp\n`);
