import type { JsonObject } from '@decorum/core';
import type { McpHost, HostTool } from '../host.js';
import { failureText, modelTools, resultText } from './content-text.js';

/** A function tool as the OpenAI Chat Completions API takes it. */
export interface OpenAiFunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters: JsonObject };
}

/** One `tool_calls[]` entry of an assistant message. */
export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** The `tool` message answering one call. */
export interface OpenAiToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** The host's merged tools as OpenAI function tools; names the API rejects are left out (`onSkipped`). */
export function toOpenAiTools(tools: readonly HostTool[], onSkipped?: (tool: HostTool) => void): OpenAiFunctionTool[] {
  return modelTools(tools, onSkipped).map(({ tool, description }) => ({
    type: 'function',
    function: { name: tool.name, ...(description !== undefined && { description }), parameters: tool.inputSchema },
  }));
}

/** Routes one tool call through the host and answers it; failures become an `Error: …` message. */
export async function runOpenAiToolCall(host: McpHost, call: OpenAiToolCall): Promise<OpenAiToolMessage> {
  try {
    const args = call.function.arguments ? (JSON.parse(call.function.arguments) as JsonObject) : {};
    const result = await host.callTool(call.function.name, args);
    const text = resultText(result);
    return { role: 'tool', tool_call_id: call.id, content: result.isError ? `Error: ${text}` : text };
  } catch (error) {
    return { role: 'tool', tool_call_id: call.id, content: `Error: ${error instanceof SyntaxError ? 'the arguments are not valid JSON' : failureText(error)}` };
  }
}
