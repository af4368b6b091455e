// `@Complete` is recorded in decorators/complete.ts and built by registry/scanner.ts; these
// re-exports keep index.ts and methods/completion-complete.ts (owned by the legacy-era branch) unchanged (issue #16).
export { Complete, type CompletionTarget, type CompletionContext, type CompletionValues, type Completer } from '../decorators/complete.js';
export { completionKey, type CompleterEntry } from '../registry/entries.js';
