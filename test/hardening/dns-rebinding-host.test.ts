// Hardening risk: the DNS-rebinding defence relied on Origin alone. On a loopback connection the
// `Host` header must now name the loopback host by default; `allowedHosts` changes the rule.
import { afterEach, describe, expect, test } from '@jest/globals';
import type { McpPluginOptions } from '@decorum/fastify';
import { startApp, type TestApp } from '../../packages/fastify/test/support/app.js';
import { Hardening } from './fixtures/hardening-server.js';
import { postRaw, rawToolCall } from './support/raw-call.js';

let served: TestApp | undefined;
afterEach(() => served?.close());

async function statusWithHost(options: Omit<McpPluginOptions, 'servers'>, host: (port: string) => string): Promise<{ status: number; message?: string }> {
  served = await startApp({ servers: [Hardening], ...options });
  const port = new URL(served.url).port;
  const res = await postRaw(served.url, 'echo', rawToolCall('1', 'echo', '{"text":"hi"}'), { host: host(port) });
  return { status: res.status, message: res.json?.error?.message };
}

describe('by default, on a server bound to 127.0.0.1', () => {
  test.each(['127.0.0.1:PORT', 'localhost:PORT', 'LOCALHOST:PORT', '[::1]:PORT', 'localhost'])('Host %s is served', async (host) => {
    expect((await statusWithHost({}, (port) => host.replace('PORT', port))).status).toBe(200);
  });

  test('a rebinding page (Host: its own domain, no Origin) is refused with 403', async () => {
    expect(await statusWithHost({}, (p) => `evil.example:${p}`)).toEqual({
      status: 403,
      message: expect.stringMatching(/^Forbidden: Host "evil\.example:\d+" is not allowed; list it in allowedHosts$/),
    });
  });
});

describe('allowedHosts', () => {
  test('a list replaces the default, for every request', async () => {
    expect((await statusWithHost({ allowedHosts: ['mcp.example.com'] }, (p) => `mcp.example.com:${p}`)).status).toBe(200);
    await served!.close();
    expect((await statusWithHost({ allowedHosts: ['mcp.example.com'] }, (p) => `localhost:${p}`)).status).toBe(403);
  });

  test("'any' turns the check off", async () => {
    expect((await statusWithHost({ allowedHosts: 'any' }, (p) => `evil.example:${p}`)).status).toBe(200);
  });
});
