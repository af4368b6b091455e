import { UserError } from './user-error.js';

/**
 * A {@link UserError} that may also carry `structuredContent` for the `isError: true` result of a
 * tool. Thrown from a prompt or a resource it is a plain `UserError` (a `-32602` with its message;
 * `structuredContent` has no place in a JSON-RPC error and is dropped).
 */
export class ToolError extends UserError {
  constructor(
    message: string,
    /** Optional `structuredContent` for the error result. */
    readonly structuredContent?: unknown,
  ) {
    super(message);
  }
}
