/**
 * TypeBox's compiler (`typebox/compile` and `typebox/system`), loaded on first use instead of at
 * start-up. A stdio server is spawned by its host at launch and answers discovery
 * (`server/discover`, `tools/list`) before any call, and the compiler was most of its import time
 * (docs/perf-notes.md, "Figures behind source comments"). Validators are
 * compiled on their first call: that call waits for the load once (validators may answer with a
 * promise, see `CompiledSchema.validate`), every later one is synchronous.
 */
import type { Compile as CompileFn } from 'typebox/compile';
import type { Settings as SettingsApi } from 'typebox/system';

/** The parts of TypeBox the validators use. */
export interface TypeBoxCompiler {
  readonly Compile: typeof CompileFn;
  readonly Settings: typeof SettingsApi;
}

let loaded: TypeBoxCompiler | undefined;
let loading: Promise<TypeBoxCompiler> | undefined;

/**
 * Loads TypeBox's compiler once (every caller shares the one load), so that the first validation
 * does not wait for it. Transports call it when start-up time matters less than the first call:
 * `mcpPlugin` awaits it at registration; `mcp-serve` over stdio starts it once it is serving.
 * Exported from `@decorum/core` as `preloadValidators`.
 */
export function loadTypeBoxCompiler(): Promise<TypeBoxCompiler> {
  loading ??= Promise.all([import('typebox/compile'), import('typebox/system')]).then(
    ([compile, system]) => (loaded = { Compile: compile.Compile, Settings: system.Settings }),
  );
  return loading;
}

/**
 * A value built with the compiler on first use. `get()` returns it synchronously once built (or
 * built at once when the compiler is already loaded); before, a promise of it. A build that
 * throws throws (or rejects) on every use, as it would have at start-up.
 */
export function compiledOnFirstUse<T>(build: (compiler: TypeBoxCompiler) => T): () => T | Promise<T> {
  let value: T | undefined;
  let built = false;
  const make = (compiler: TypeBoxCompiler): T => {
    if (!built) {
      value = build(compiler);
      built = true;
    }
    return value as T;
  };
  return () => (built ? (value as T) : loaded ? make(loaded) : loadTypeBoxCompiler().then(make));
}
