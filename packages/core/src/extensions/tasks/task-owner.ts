/**
 * Who owns a task: the verified principal with its issuer (and client id when the token names
 * one). Without authentication there is no owner, and the unguessable id is the bearer token.
 */
import type { AuthInfo } from '../../context/request-context.js';

export function ownerOf(auth: AuthInfo | undefined): string | undefined {
  if (auth?.principal === undefined) return undefined;
  const { iss, client_id: clientId, azp } = auth.claims;
  const client = typeof clientId === 'string' ? clientId : typeof azp === 'string' ? azp : '';
  return JSON.stringify([typeof iss === 'string' ? iss : '', auth.principal, client]);
}
