import type { DecorumServer } from '@decorum/core';
import type { FastifyInstance } from 'fastify';

// Mounts per Fastify context. A child context is an object whose prototype is its parent's, so a
// context sees its own mounts and its ancestors', never a child's or a sibling's.
const mountsByContext = new WeakMap<object, Map<string, DecorumServer>>();

export function mountsVisibleFrom(this: FastifyInstance): ReadonlyMap<string, DecorumServer> {
  const chain: Array<Map<string, DecorumServer>> = [];
  // A walk up the context's prototype chain, starting at the context itself (not a closure's alias).
  // eslint-disable-next-line @typescript-eslint/no-this-alias
  for (let context: object | null = this; context !== null; context = Object.getPrototypeOf(context) as object | null) {
    const own = mountsByContext.get(context);
    if (own) chain.unshift(own);
  }
  return new Map(chain.flatMap((own) => [...own]));
}

/** Records that `server` is mounted at `path` in the context `app`. */
export function recordMount(app: FastifyInstance, path: string, server: DecorumServer): void {
  let own = mountsByContext.get(app);
  if (!own) mountsByContext.set(app, (own = new Map()));
  own.set(path, server);
}
