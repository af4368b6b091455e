import { ForbiddenError } from '../errors/protocol-errors.js';
import type { PipelineCall } from './call.js';

/** The OAuth scopes a routed request's target declares (`scopes:` of its decorator); none for lists and discovery. */
export function targetScopes(call: PipelineCall): readonly string[] {
  return call.target?.entry.scopes ?? [];
}

/**
 * The decorators' `scopes:` as a guard: when the transport authenticated the caller (HTTP with
 * OAuth), the token must grant every scope the target declares. Without authentication (stdio,
 * HTTP without auth) there are no scopes to check, as before. The HTTP transport answers the same
 * rule earlier, before it opens a stream, with 403 and an `insufficient_scope` challenge; this
 * guard is what every transport and the per-caller lists share.
 */
export function scopesGuard(call: PipelineCall): boolean {
  const auth = call.auth;
  if (auth === undefined) return true;
  const needed = targetScopes(call);
  if (needed.length === 0) return true;
  const missing = needed.filter((scope) => !auth.scopes.includes(scope));
  if (missing.length === 0) return true;
  throw new ForbiddenError(
    `Forbidden: ${call.method} "${call.target!.name}" needs the scope${needed.length > 1 ? 's' : ''} ${needed.join(' ')}; the token lacks ${missing.join(' ')}`,
    {
      requiredScopes: needed,
      missingScopes: missing,
    },
  );
}
