import { InternalError } from '../errors/protocol-errors.js';
import type { GetPromptResult, PromptMessage } from '../protocol/types.js';
import { isContentBlock, text } from './content.js';

function isPromptMessage(value: unknown): value is PromptMessage {
  const v = value as PromptMessage | null;
  return typeof v === 'object' && v !== null && (v.role === 'user' || v.role === 'assistant') && isContentBlock(v.content);
}

function toMessage(value: unknown): PromptMessage | undefined {
  if (typeof value === 'string') return { role: 'user', content: text(value) };
  if (isPromptMessage(value)) return value;
  if (isContentBlock(value)) return { role: 'user', content: value };
  return undefined;
}

/**
 * Shapes what a prompt returned: a string is one user text message; a message, a content block,
 * or an array of those (strings included) become messages; a `GetPromptResult` passes through.
 */
export function promptResultFromValue(value: unknown, promptName: string): GetPromptResult {
  if (typeof value === 'object' && value !== null && Array.isArray((value as GetPromptResult).messages)) {
    const result = value as GetPromptResult;
    if (result.messages.every(isPromptMessage)) return result;
  }
  const items = Array.isArray(value) ? value : [value];
  const messages = items.map(toMessage);
  if (messages.some((m) => m === undefined)) {
    throw new InternalError(`Prompt "${promptName}" returned a value that is not a prompt message`);
  }
  return { messages: messages as PromptMessage[] };
}
