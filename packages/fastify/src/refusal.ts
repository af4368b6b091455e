import { InvalidRequestError } from '@decorum/core';
import type { RefusalKind } from './status.js';

/**
 * A request refused by the HTTP layer before its JSON-RPC message was read (bad Origin, wrong
 * method, media type, size, Accept). It is answered with its own status (see `status.ts`) and a
 * JSON-RPC error body without `id`; the code is the standard `-32600`, never one of the legacy
 * `-32000…-32019` transport codes.
 */
export class HttpRefusal extends InvalidRequestError {
  constructor(
    readonly kind: RefusalKind,
    message: string,
    /** Response headers that go with the refusal (`WWW-Authenticate` for 401/403 from OAuth). */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }
}
