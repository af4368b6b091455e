import type { FastifyRequest } from 'fastify';
import { hostPolicy } from '../src/host-check.js';

/** A request as the check reads it: the Host header and the connection's local address. */
function request(host: string | undefined, localAddress: string, socket: object = { localAddress }): FastifyRequest {
  return { headers: host === undefined ? {} : { host }, raw: { socket } } as unknown as FastifyRequest;
}

describe('the Host check remembers its last answer and each connection, never the wrong way round', () => {
  test('alternating allowed and refused Host values on one policy answer each one for itself', () => {
    const check = hostPolicy(undefined);
    const socket = { localAddress: '127.0.0.1' };
    const answers = ['localhost:3000', 'evil.example', 'evil.example', 'LOCALHOST', '127.0.0.1:8080', 'evil.example:80', undefined, '[::1]:3000'].map(
      (host) => check(request(host, '127.0.0.1', socket)) === undefined,
    );
    expect(answers).toEqual([true, false, false, true, true, false, false, true]);
  });

  test('a connection on another interface is not checked by default; one on loopback always is', () => {
    const check = hostPolicy(undefined);
    const remote = { localAddress: '10.0.0.5' };
    const local = { localAddress: '::ffff:127.0.0.1' };
    expect(check(request('evil.example', '10.0.0.5', remote))).toBeUndefined();
    expect(check(request('evil.example', '', local))?.message).toMatch(/Forbidden: Host "evil.example"/);
    expect(check(request('evil.example', '10.0.0.5', remote))).toBeUndefined();
  });

  test('a list applies to every connection, with the same memory', () => {
    const check = hostPolicy(['mcp.example.com']);
    const remote = { localAddress: '10.0.0.5' };
    expect(check(request('mcp.example.com:443', '', remote))).toBeUndefined();
    expect(check(request('evil.example', '', remote))).toBeDefined();
    expect(check(request('MCP.example.com', '', remote))).toBeUndefined();
  });
});
