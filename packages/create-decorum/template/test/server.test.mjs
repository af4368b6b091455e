// Talks to the server as a host would: `mcp-serve src/server.ts` as a child process, JSON-RPC
// lines over stdio. (Once @decorum/client is published, createTestClient(Server) does this in-process.)
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const cli = new URL('../node_modules/@decorum/cli/', import.meta.url);
const mcpServe = new URL(JSON.parse(readFileSync(new URL('package.json', cli), 'utf8')).bin['mcp-serve'], cli);

let server;
let nextId = 0;
const pending = new Map();

function call(method, params = {}) {
  const id = ++nextId;
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'server-test', version: '0.0.0' },
  };
  server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta } })}\n`);
  return new Promise((resolve) => pending.set(id, resolve));
}

before(() => {
  server = spawn(process.execPath, [fileURLToPath(mcpServe), 'src/server.ts'], { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, DECORUM_LOG_LEVEL: 'warn' } });
  createInterface({ input: server.stdout }).on('line', (line) => {
    const message = JSON.parse(line);
    pending.get(message.id)?.(message);
    pending.delete(message.id);
  });
});

after(() => server.kill());

test('tools/list shows both tools with their input schemas', async () => {
  const { result } = await call('tools/list');
  const greet = result.tools.find((tool) => tool.name === 'greet');
  assert.deepEqual(greet.inputSchema.required, ['name']);
  assert.deepEqual(result.tools.map((tool) => tool.name).sort(), ['add', 'greet']);
});

test('greet answers in the language asked for', async () => {
  const { result } = await call('tools/call', { name: 'greet', arguments: { name: 'Ada', language: 'fr' } });
  assert.equal(result.content[0].text, 'Bonjour, Ada !');
});

test('invalid arguments are a tool error that names the field', async () => {
  const { result } = await call('tools/call', { name: 'add', arguments: { a: 1 } });
  assert.equal(result.isError, true);
  assert.match(result.content[0].text, /b/);
});

test('the resource and the prompt are served', async () => {
  const read = await call('resources/read', { uri: 'info://about' });
  assert.match(read.result.contents[0].text, /a Decorum MCP server/);
  const prompt = await call('prompts/get', { name: 'explain', arguments: { topic: 'MCP' } });
  assert.equal(prompt.result.messages[0].content.text, 'Explain MCP in three sentences.');
});
