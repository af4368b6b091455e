// @decorum-internal/test-support: what the packages', the examples' and the repository's tests share.
// Package and example tests import it by name (the root tsconfig's paths and Jest's moduleNameMapper
// point here), never by a relative path out of their package. The fixture servers, which need
// @decorum/core, are the `@decorum-internal/test-support/fixtures` entry, so this one loads no package.
export * from './mcp-requests.js';
export * from './stdio-process.js';
export * from './legacy-stdio.js';
export * from './until.js';
export * from './fixture-path.js';
export * from './free-port.mjs';
export * from './redis-server.mjs';
export * from './nginx.mjs';
export * from './packed-packages.js';
export * from './doc-blocks.js';
export * from './tampered-token.js';
export * from './node-output.js';
