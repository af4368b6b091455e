// The engine harness is the core's test support (packages/core/test/support); the other packages' tests reuse it from here.
export * from '../../packages/core/test/support/engine-harness.js';
