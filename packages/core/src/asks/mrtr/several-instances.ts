import type { DecorumServer } from '../../server/types.js';

/**
 * For a transport whose server may run as several instances behind one address (Streamable
 * HTTP): MRTR `requestState` must then open on every instance, so a server without a shared key
 * (`mrtr.keys` or `DECORUM_STATE_KEYS`) warns the first time it seals one. stdio and in-process
 * transports do not call it: one process, where a per-process key loses nothing.
 */
export function expectSeveralInstances(server: DecorumServer): void {
  server.engine.state.mrtr?.ring.expectSeveralInstances();
}
