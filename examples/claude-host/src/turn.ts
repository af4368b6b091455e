import type Anthropic from '@anthropic-ai/sdk';
import { runAnthropicToolUse, toAnthropicTools, type AnthropicToolUse, type McpHost } from '@decorum/client/host';

/** The most model ↔ tool rounds one user message may take (a bound on tool loops, HC-06). */
export const MAX_TOOL_ROUNDS = 10;

/**
 * One user turn: the model sees the host's merged tools; every `tool_use` it emits is routed
 * through the host (which asks before sensitive calls) and answered with its `tool_result`,
 * until the model answers in text. `messages` is the conversation, extended in place.
 */
export async function runTurn(anthropic: Anthropic, host: McpHost, messages: Anthropic.MessageParam[], model: string, onToolUse?: (block: AnthropicToolUse) => void): Promise<string> {
  // Fetched per turn: the host's caches keep this cheap and fresh (ttlMs, list-changed).
  const tools = toAnthropicTools(await host.listTools()) as Anthropic.Tool[];
  for (let round = 0; round < MAX_TOOL_ROUNDS; round++) {
    const reply = await anthropic.messages.create({ model, max_tokens: 1024, messages, tools });
    messages.push({ role: 'assistant', content: reply.content });
    const uses = reply.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
    if (reply.stop_reason !== 'tool_use' || uses.length === 0) {
      return reply.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    }
    const results = [];
    for (const use of uses) {
      onToolUse?.(use as AnthropicToolUse);
      results.push(await runAnthropicToolUse(host, use as AnthropicToolUse));
    }
    // Each tool_use is answered by a user message holding only the matching tool_results.
    messages.push({ role: 'user', content: results as Anthropic.ToolResultBlockParam[] });
  }
  return `(stopped after ${MAX_TOOL_ROUNDS} tool rounds)`;
}
