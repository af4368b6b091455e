/**
 * Throw from any handler (tool, prompt or resource) to refuse a request for a reason the caller
 * should read: the message reaches the client as written. `tools/call` answers with an
 * `isError: true` result carrying the message (so the model can react); `prompts/get` and
 * `resources/read`, whose results have no error form, answer with a JSON-RPC `-32602` error
 * carrying the message. Any other thrown error reaches the client as a generic message, with
 * its details (and stack) only in the server log.
 */
export class UserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
