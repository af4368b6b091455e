import type { ContentBlock } from '@decorum/core';
import type { CallToolResult } from '../../results.js';

/**
 * One content block as text, for model APIs that take text where MCP has richer blocks:
 * embedded text resources inline, links and binary data named (their bytes are not text).
 */
export function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource':
      return 'text' in block.resource
        ? block.resource.text
        : `[binary resource ${block.resource.uri}${block.resource.mimeType ? ` (${block.resource.mimeType})` : ''}]`;
    case 'resource_link':
      return `[resource ${block.uri}${block.description ? `: ${block.description}` : ''}]`;
    default:
      return `[${block.type} ${block.mimeType}]`;
  }
}

/** A whole result as text: its blocks, or its structured content when it has no blocks. */
export function resultText(result: CallToolResult): string {
  const content = Array.isArray(result.content) ? result.content : [];
  if (content.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return content.map(blockText).join('\n');
}

/** A failure of the call itself (refused, server gone, …) as the text a model sees. */
export function failureText(error: unknown): string {
  return error instanceof Error ? error.message : 'The tool call failed';
}

/** Tool names both model APIs accept (Anthropic and OpenAI: `^[a-zA-Z0-9_-]{1,64}$`). */
export const MODEL_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The tools a model API can take, each with the description it shows (`description`, else `title`). */
export function modelTools<T extends { name: string; description?: string; title?: string }>(
  tools: readonly T[],
  onSkipped?: (tool: T) => void,
): Array<{ tool: T; description: string | undefined }> {
  const out: Array<{ tool: T; description: string | undefined }> = [];
  for (const tool of tools) {
    if (MODEL_TOOL_NAME.test(tool.name)) out.push({ tool, description: tool.description ?? tool.title });
    else onSkipped?.(tool);
  }
  return out;
}
