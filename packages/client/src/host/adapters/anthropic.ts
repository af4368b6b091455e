import type { JsonObject } from '@decorum/core';
import type { McpHost, HostTool } from '../host.js';
import { blockText, failureText, modelTools } from './content-text.js';

/** A tool as the Anthropic Messages API takes it (`tools[]`). */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: JsonObject;
}

/** A `tool_use` block of an assistant message. */
export interface AnthropicToolUse {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

type AnthropicResultContent = { type: 'text'; text: string } | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } };

/** The `tool_result` block answering one `tool_use`. */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: AnthropicResultContent[];
  is_error?: boolean;
}

/**
 * The host's merged tools as Messages API `tools`. A namespaced name the API would reject
 * (over 64 characters, or with `.`) is left out and reported through `onSkipped`.
 */
export function toAnthropicTools(tools: readonly HostTool[], onSkipped?: (tool: HostTool) => void): AnthropicTool[] {
  return modelTools(tools, onSkipped).map(({ tool, description }) => ({
    name: tool.name,
    ...(description !== undefined && { description }),
    input_schema: tool.inputSchema,
  }));
}

/**
 * Routes one `tool_use` through the host (approval included) and answers it with a
 * `tool_result`. Anything that goes wrong — refusal, unknown tool, server gone, tool error —
 * becomes `is_error: true` with its message, so the model can carry on.
 */
export async function runAnthropicToolUse(host: McpHost, block: AnthropicToolUse): Promise<AnthropicToolResult> {
  try {
    const input = (typeof block.input === 'object' && block.input !== null ? block.input : {}) as JsonObject;
    const result = await host.callTool(block.name, input);
    const content: AnthropicResultContent[] = (result.content ?? []).map((b) =>
      b.type === 'image' ? { type: 'image', source: { type: 'base64', media_type: b.mimeType, data: b.data } } : { type: 'text', text: blockText(b) },
    );
    if (content.length === 0) content.push({ type: 'text', text: result.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : '' });
    return { type: 'tool_result', tool_use_id: block.id, content, ...(result.isError && { is_error: true }) };
  } catch (error) {
    return { type: 'tool_result', tool_use_id: block.id, content: [{ type: 'text', text: failureText(error) }], is_error: true };
  }
}
