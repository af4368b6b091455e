import { DecorumUsageError, UsageErrorCode } from '../errors/usage-error.js';
import type { DecorumServer } from './types.js';

const servers = new WeakMap<object, DecorumServer>();

/** Records which server an instance serves in (done by `createServer` and `live.add`). */
export function bindServer(instance: object, server: DecorumServer): void {
  servers.set(instance, server);
}

/**
 * The server a decorated instance is served by, so that its handlers can change it at run time:
 * `serverOf(this).live.tools.disable('deploy')`. Throws when the instance is not being served
 * (a class passed to `createServer` is instantiated there; use `this` inside a handler).
 *
 * @throws DecorumUsageError `DECORUM_ERR_NOT_SERVED` for an instance no server serves.
 */
export function serverOf(instance: object): DecorumServer {
  const server = servers.get(instance);
  if (!server)
    throw new DecorumUsageError(
      UsageErrorCode.NOT_SERVED,
      `${instance?.constructor?.name ?? 'value'} is not served by a Decorum server (call serverOf(this) inside a handler of a served class)`,
    );
  return server;
}
