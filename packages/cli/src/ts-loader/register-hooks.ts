import { register } from 'node:module';

let registered = false;

/**
 * Registers the swc module hooks (once per process) and turns Node's source-map support on, so a
 * stack trace of compiled TypeScript names the `.ts` file and line (swc emits inline maps).
 */
export function registerTsHooks(): void {
  if (registered) return;
  process.setSourceMapsEnabled(true);
  register(new URL('./hooks.js', import.meta.url));
  registered = true;
}
