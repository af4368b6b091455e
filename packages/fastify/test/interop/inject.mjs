// app.inject() against the built plugin, in a plain Node process: light-my-request loads an ESM-only
// dependency (cookie) with require(), which Jest's VM-modules mode cannot do on Node 20.
import Fastify from 'fastify';
import { mcpPlugin } from '@decorum/fastify';
import { WeatherServer } from '../../../../examples/weather/dist/weather.js';

const app = Fastify();
await app.register(mcpPlugin, { servers: [WeatherServer] });
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const res = await app.inject({
  method: 'POST',
  url: '/mcp',
  headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'weather_current' },
  payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'weather_current', arguments: { location: 'Tokyo' }, _meta: meta } },
});
process.stdout.write(`${JSON.stringify({ status: res.statusCode, body: res.json() })}\n`);
await app.close();
