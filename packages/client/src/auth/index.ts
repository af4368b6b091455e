export { OAuthClient, type OAuthOptions, type AuthorizeStep, type PreRegisteredClient } from './oauth-client.js';
export { MemoryTokenStore, type TokenStore, type StoredAuthorization } from './token-store.js';
export { AuthorizationError } from './authorization-error.js';
export { discoverProtectedResource, discoverAuthorizationServer, canonicalResource, type ProtectedResourceMetadata } from './discovery.js';
