import type { HandlerAsks, HandlerOutcome } from '../asks/handler-asks.js';
import type { MethodCall } from './method.js';
import { mrtrSeam } from '../asks/mrtr/mrtr-seam.js';

/**
 * Runs a tool, prompt or resource handler with its asks answered by the request's seam: the
 * session's seam a legacy session put on the channel, else an MRTR round. `invoke` gets the asks
 * to make the handler's `ctx` with. The one place `tools/call`, `prompts/get` and
 * `resources/read` share for "open a round, run with input, invoke".
 */
export function invokeHandler<T>(
  call: MethodCall<unknown>,
  name: string,
  args: unknown,
  invoke: (asks: HandlerAsks) => T | Promise<T>,
): Promise<HandlerOutcome<T>> | HandlerOutcome<T> {
  const seam = call.asks ?? mrtrSeam;
  return seam.run(call, { mrtr: call.state.mrtr, name, args }, invoke);
}
