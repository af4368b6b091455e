import type { CallToolResult, ContentBlock, Result } from '../protocol/types.js';
import { isContentBlock, text } from './content.js';
import { valueText } from './value-text.js';

/** True for an object that already is a `CallToolResult` (has a `content` array of blocks). */
export function isCallToolResult(value: unknown): value is CallToolResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { content?: unknown }).content) &&
    (value as { content: unknown[] }).content.every(isContentBlock)
  );
}

/**
 * Shapes what a tool without `output:` returned, as a result both eras share: a string is one text
 * block, blocks pass through, a `CallToolResult` passes through, and any other value is one text
 * block as {@link valueText} says (`undefined` → `OK`, a `Date` → ISO-8601 text, bytes → a -32603
 * error naming the tool, else JSON). Only a handler's own `CallToolResult` is copied (a spread,
 * as the codec then sets keys on it); the common case is one object literal.
 *
 * Every tool result has a `resultType` slot first, empty (JSON leaves it out): the modern codec
 * fills it, so a tools/call answer reads `resultType` first, and a property added to an object
 * literal would go to a property array of its own, allocated per result. `_meta` likewise.
 */
export function toolResultFromValue(value: unknown, toolName: string): CallToolResult & Result {
  if (isCallToolResult(value)) return { resultType: undefined, ...value };
  return { resultType: undefined, content: contentFromValue(value, toolName), isError: false, _meta: undefined };
}

function contentFromValue(value: unknown, toolName: string): ContentBlock[] {
  if (typeof value === 'string') return [text(value)];
  if (isContentBlock(value)) return [value];
  if (Array.isArray(value) && value.length > 0 && value.every(isContentBlock)) return value;
  return [text(valueText(value, toolName))];
}

/** A tool result for structured output: the value plus its JSON as text for older clients. */
export function structuredToolResult(structured: unknown, json: string = JSON.stringify(structured)): CallToolResult & Result {
  return { resultType: undefined, content: [text(json)], structuredContent: structured, isError: false };
}

/** An `isError` result with a message the model can read. */
export function toolErrorResult(message: string, structuredContent?: unknown): CallToolResult & Result {
  const result: CallToolResult & Result = { resultType: undefined, content: [text(message)], isError: true };
  if (structuredContent !== undefined) result.structuredContent = structuredContent;
  return result;
}
