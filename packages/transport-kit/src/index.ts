/**
 * @decorum/transport-kit — Decorum's transport internals, with no public API: the list and the map
 * the transports keep their running requests in, and the process tuning their runners apply. It is
 * private (never published on its own): `@decorum/core`, `@decorum/stdio` and `@decorum/fastify`
 * each bundle it in their tarball, and it changes with them.
 *
 * @module \@decorum/transport-kit
 */
export { LinkedList, ListEntry } from './linked-list.js';
export { InFlight, type RequestId } from './in-flight.js';
export { keepTickShape, tickShapeKept } from './tick-shape.js';
export { raiseMallocTrimThreshold } from './malloc-trim.js';
