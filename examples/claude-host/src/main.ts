/**
 * A terminal chat with Claude over every configured MCP server: `McpHost` merges their tools,
 * each `tool_use` is routed through it (asking you before any call but a read-only one of a server
 * whose annotations the config trusts), and
 * its `tool_result` goes back to the model until it answers.
 *
 *   ANTHROPIC_API_KEY=… CLAUDE_HOST_CONFIG=claude-host.json node examples/claude-host/dist/main.js
 */
import Anthropic from '@anthropic-ai/sdk';
import { createInterface } from 'node:readline/promises';
import { escapeControls, type ServerLocation } from '@decorum/client';
import { McpHost, type ToolCall } from '@decorum/client/host';
import { loadConfig } from './config.js';
import { runTurn } from './turn.js';

const terminal = createInterface({ input: process.stdin, terminal: false });
const lines = terminal[Symbol.asyncIterator]();
async function ask(question: string): Promise<string | undefined> {
  process.stdout.write(question);
  const next = await lines.next();
  return next.done ? undefined : next.value;
}

async function approve(call: ToolCall): Promise<boolean> {
  const answer = await ask(`\n[${call.server}] ${call.name} ${JSON.stringify(call.arguments)} needs your approval. Run it? [y/N] `);
  return /^y(es)?$/i.test(answer?.trim() ?? '');
}

if (!process.env.ANTHROPIC_API_KEY) {
  process.stderr.write('Set ANTHROPIC_API_KEY to chat with Claude.\n');
  process.exit(2);
}
const config = await loadConfig();
const host = new McpHost({
  approve,
  // The host's name for the asking server, not the one it claims; its message shown escaped.
  elicitation: async (request, context) => {
    const answer = await ask(`\n[${context.server}] ${escapeControls(request.message)} [y/N] `);
    return /^y/i.test(answer?.trim() ?? '') ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
  },
  onWarning: (message) => process.stderr.write(`host: ${message}\n`),
});
for (const [name, { trustAnnotations, ...location }] of Object.entries(config.servers)) {
  try {
    await host.connect(name, location as ServerLocation, { trustAnnotations });
    process.stdout.write(`connected ${name}\n`);
  } catch (error) {
    // One server that cannot start does not keep the others from the chat.
    process.stderr.write(`could not connect ${name}: ${(error as Error).message}\n`);
  }
}
const anthropic = new Anthropic();
const model = config.model ?? 'claude-sonnet-4-5';
const messages: Anthropic.MessageParam[] = [];
try {
  for (;;) {
    const text = await ask('\nyou> ');
    if (text === undefined || text.trim() === '/quit') break;
    if (!text.trim()) continue;
    messages.push({ role: 'user', content: text });
    const answer = await runTurn(anthropic, host, messages, model, (use) => process.stdout.write(`\n  → ${use.name} ${JSON.stringify(use.input)}\n`));
    process.stdout.write(`\nclaude> ${answer}\n`);
  }
} finally {
  terminal.close();
  await host.close();
}
