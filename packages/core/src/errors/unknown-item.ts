import { InvalidParamsError, ResourceNotFoundError, type McpProtocolError } from './protocol-errors.js';

/**
 * What `tools/call`, `prompts/get` and `resources/read` answer for a name they do not know — and,
 * with `lists: 'per-caller'`, for an item the caller's guards hide, so the two cannot be told apart.
 */
export function unknownItem(kind: 'tool' | 'prompt' | 'resource', nameOrUri: string): McpProtocolError {
  if (kind === 'tool') return new InvalidParamsError(`Unknown tool: ${nameOrUri}`);
  if (kind === 'prompt') return new InvalidParamsError(`Unknown prompt: ${nameOrUri}`);
  return new ResourceNotFoundError(`Resource not found: ${nameOrUri}`, { uri: nameOrUri });
}
