// Tests the server in-process with Decorum's testing kit: createTestClient(Server) serves the class
// and talks to it as a host would (no port, no child process). `npm test` builds first (tsc keeps
// the decorator metadata the DTO schemas come from), then runs this file against dist/.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestClient } from '@decorum/client';
import { Server } from '../dist/server.js';

let client;

before(async () => {
  client = await createTestClient(Server);
});

after(() => client.close());

test('tools/list shows both tools with their input schemas', async () => {
  const { tools } = await client.listTools();
  const greet = tools.find((tool) => tool.name === 'greet');
  assert.deepEqual(greet.inputSchema.required, ['name']);
  assert.deepEqual(tools.map((tool) => tool.name).sort(), ['add', 'greet']);
});

test('greet answers in the language asked for', async () => {
  const result = await client.callTool('greet', { name: 'Ada', language: 'fr' });
  assert.equal(result.content[0].text, 'Bonjour, Ada !');
});

test('invalid arguments are a tool error that names the field', async () => {
  const result = await client.callTool('add', { a: 1 });
  assert.equal(result.isError, true);
  assert.match(result.content[0].text, /b/);
});

test('the resource and the prompt are served', async () => {
  const read = await client.readResource('info://about');
  assert.match(read.contents[0].text, /a Decorum MCP server/);
  const prompt = await client.getPrompt('explain', { topic: 'MCP' });
  assert.equal(prompt.messages[0].content.text, 'Explain MCP in three sentences.');
});
