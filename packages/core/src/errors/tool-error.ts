/**
 * Throw from a tool to report a failure the model should see: the call answers with
 * `isError: true` and this message as text. Any other thrown error is reported with a
 * generic message (its details go to the server log only).
 */
export class ToolError extends Error {
  constructor(
    message: string,
    /** Optional `structuredContent` for the error result. */
    readonly structuredContent?: unknown,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}
