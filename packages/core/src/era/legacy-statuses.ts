import type { ErrorOrigin } from './codec.js';
import { pipelineRefusalStatus } from './modern-statuses.js';

/**
 * The HTTP status of a JSON-RPC error in a legacy (2025-11-25 and earlier) session. A message that
 * could not be taken (its JSON, envelope or session headers unreadable, a refused `initialize`) is
 * a 400. An answer to a request is a 200, as the legacy era's servers have always answered (the
 * official clients of those revisions turn any other status into a transport error and lose the
 * JSON-RPC error) — except the pipeline's refusals, which keep their modern statuses: 403 (with the
 * challenge where OAuth is on, as the MCP authorization spec asks for insufficient permission) and
 * 429 with `Retry-After`. The 2025-11-25 transport fixes only the content type of an answer, not its status.
 */
export function legacyErrorStatus(code: number, origin: ErrorOrigin): number {
  if (origin === 'request') return 400;
  return pipelineRefusalStatus(code) ?? 200;
}
