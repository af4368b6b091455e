import type { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { HttpRefusal } from '../refusal.js';

/**
 * Which `Host` headers the endpoint answers (DNS-rebinding defence, together with the Origin check):
 * host names (`mcp.example.com`, `localhost`; a `Host` port is not compared), or a predicate given
 * the whole header, or `'any'` to turn the check off.
 */
export type AllowedHosts = readonly string[] | ((host: string) => boolean) | 'any';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The host name of a `Host` header, lower-cased, without its port (`[::1]` keeps its brackets). */
function hostName(host: string): string {
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : host.lastIndexOf(':');
  return (end > 0 ? host.slice(0, end) : host).toLowerCase();
}

/** True for an address of the loopback interface (`127.0.0.0/8`, `::1`, and their IPv4-mapped forms). */
function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/**
 * Builds the `Host` check once, at registration; it is given the request and its `Host` header.
 *
 * By default a request that arrived on a loopback address (the server is bound to, or reached at,
 * 127.0.0.1 / ::1) must name `localhost`, `127.0.0.1` or `[::1]` in `Host`: a page that rebinds
 * its own domain to 127.0.0.1 still sends `Host: evil.example`, and is refused with 403 — even when
 * the browser sends no `Origin`. Other connections are not checked by default. A list or predicate
 * applies to every request. Behind a local reverse proxy that keeps the client's `Host`, list the
 * public host names.
 */
export function hostPolicy(allowed: AllowedHosts | undefined): (request: FastifyRequest, host: string | undefined) => HttpRefusal | undefined {
  if (allowed === 'any') return () => undefined;
  const test = typeof allowed === 'function' ? allowed : namesTest(Array.isArray(allowed) ? new Set(allowed.map((name) => hostName(name))) : LOOPBACK_NAMES);
  const always = allowed !== undefined;
  return (request, host) => {
    if (!always && !onLoopback(request.raw.socket)) return undefined;
    if (host !== undefined && test(host)) return undefined;
    return new HttpRefusal('forbidden-host', `Forbidden: Host ${host === undefined ? '(none)' : JSON.stringify(host)} is not allowed; list it in allowedHosts`);
  };
}

/**
 * A test of `Host` against host names that remembers its last answer: a client sends the same
 * `Host` on every request, so the parse and the lookup run once per distinct value in a row.
 */
function namesTest(names: ReadonlySet<string>): (host: string) => boolean {
  let lastHost: string | undefined;
  let lastAllowed = false;
  return (host) => {
    if (host !== lastHost) {
      lastAllowed = names.has(hostName(host));
      lastHost = host;
    }
    return lastAllowed;
  };
}

/** Whether a connection arrived on a loopback address; read once per connection (keep-alive serves many requests). */
const LOOPBACK = Symbol('decorum.loopback');
function onLoopback(socket: (Socket & { [LOOPBACK]?: boolean }) | undefined): boolean {
  if (socket === undefined) return false;
  return (socket[LOOPBACK] ??= isLoopbackAddress(socket.localAddress));
}
