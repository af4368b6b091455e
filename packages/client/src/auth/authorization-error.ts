import { McpClientError } from '../errors.js';

/** The OAuth flow could not get a token: discovery, the authorization response, or the token endpoint refused. */
export class AuthorizationError extends McpClientError {
  readonly code = 'DECORUM_ERR_AUTHORIZATION';
}
