import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';

/** A server class, as handed to `createServer`. */
export type ServerClass = abstract new (...args: never[]) => object;

/** Builds a server class's instance (from a DI container, with constructor arguments). */
export type ServerResolver = (serverClass: ServerClass) => object;

/**
 * A dependency-injection container: anything with `resolve(Class)` (tsyringe, Inversify's
 * `container.get` alias, Awilix-style adapters) or `get(Class)` (NestJS `app.get`, Inversify).
 */
export type ServerContainer =
  | {
      /** Returns the instance of `serverClass` (tsyringe, Inversify). */
      resolve(serverClass: ContainerKey): unknown;
    }
  | {
      /** Returns the instance of `serverClass` (NestJS `app.get`, Inversify). */
      get(serverClass: ContainerKey): unknown;
    };

/**
 * How a container is asked: by the class itself. Containers type their keys as concrete
 * constructors (tsyringe's `constructor<T>`, Inversify's `Newable`), so this is one too.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ContainerKey = new (...args: any[]) => any;

/** Options of `createServer` that say how server classes are instantiated. */
export interface ResolveOptions {
  /** Builds each server class (default: `new Class()`). Wins over `container`. */
  resolve?: ServerResolver;
  /** Takes each server class from this container (`resolve(Class)`, else `get(Class)`). */
  container?: ServerContainer;
}

/** The function that turns a server class into its instance, decided once at start-up. */
export function serverInstantiator(options: ResolveOptions): (serverClass: ServerClass) => object {
  const { resolve, container } = options;
  if (resolve !== undefined && typeof resolve !== 'function')
    throw new DecorumStartupError(StartupErrorCode.INVALID_RESOLVER, 'resolve must be a function (Class) => instance');
  let build: (serverClass: ServerClass) => unknown;
  if (resolve) build = resolve;
  else if (container !== undefined) {
    const c = container as { resolve?: unknown; get?: unknown };
    if (typeof c.resolve === 'function') build = (cls) => (c.resolve as (k: ServerClass) => unknown).call(container, cls);
    else if (typeof c.get === 'function') build = (cls) => (c.get as (k: ServerClass) => unknown).call(container, cls);
    else throw new DecorumStartupError(StartupErrorCode.INVALID_RESOLVER, 'container must have a resolve(Class) or get(Class) method');
  } else build = (cls) => new (cls as new () => object)();
  return (serverClass) => {
    const instance = build(serverClass);
    if (instance === null || typeof instance !== 'object' || !(instance instanceof (serverClass as unknown as new () => object))) {
      throw new DecorumStartupError(
        StartupErrorCode.INVALID_RESOLVER,
        `the ${resolve ? 'resolve hook' : 'container'} gave ${instance === null ? 'null' : typeof instance} for ${serverClass.name || 'a server class'}, not an instance of it (is the class registered?)`,
      );
    }
    return instance;
  };
}
