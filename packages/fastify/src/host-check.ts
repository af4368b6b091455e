import type { FastifyRequest } from 'fastify';
import { HttpRefusal } from './refusal.js';

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
 * Builds the `Host` check once, at registration.
 *
 * By default a request that arrived on a loopback address (the server is bound to, or reached at,
 * 127.0.0.1 / ::1) must name `localhost`, `127.0.0.1` or `[::1]` in `Host`: a page that rebinds
 * its own domain to 127.0.0.1 still sends `Host: evil.example`, and is refused with 403 — even when
 * the browser sends no `Origin`. Other connections are not checked by default. A list or predicate
 * applies to every request. Behind a local reverse proxy that keeps the client's `Host`, list the
 * public host names.
 */
export function hostPolicy(allowed: AllowedHosts | undefined): (request: FastifyRequest) => HttpRefusal | undefined {
  if (allowed === 'any') return () => undefined;
  const names = Array.isArray(allowed) ? new Set(allowed.map((name) => hostName(name))) : undefined;
  const test = typeof allowed === 'function' ? allowed : (host: string) => (names ?? LOOPBACK_NAMES).has(hostName(host));
  const always = allowed !== undefined;
  return (request) => {
    if (!always && !isLoopbackAddress(request.socket?.localAddress)) return undefined;
    const host = request.headers.host;
    if (host !== undefined && test(host)) return undefined;
    return new HttpRefusal('forbidden-host', `Forbidden: Host ${host === undefined ? '(none)' : JSON.stringify(host)} is not allowed; list it in allowedHosts`);
  };
}
