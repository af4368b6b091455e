// The request builders are the core's test support (packages/core/test/support); the other packages' tests reuse them from here.
export * from '../../packages/core/test/support/mcp-requests.js';
