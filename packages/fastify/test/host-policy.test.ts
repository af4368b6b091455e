import type { FastifyRequest } from 'fastify';
import { hostPolicy } from '../src/headers/host-check.js';

/** Asks `check` about a request as it reads one: the connection's local address, and the Host header it is given. */
function ask(check: ReturnType<typeof hostPolicy>, host: string | undefined, localAddress: string, socket: object = { localAddress }) {
  return check({ raw: { socket } } as unknown as FastifyRequest, host);
}

describe('the Host check remembers its last answer and each connection, never the wrong way round', () => {
  test('alternating allowed and refused Host values on one policy answer each one for itself', () => {
    const check = hostPolicy(undefined);
    const socket = { localAddress: '127.0.0.1' };
    const answers = ['localhost:3000', 'evil.example', 'evil.example', 'LOCALHOST', '127.0.0.1:8080', 'evil.example:80', undefined, '[::1]:3000'].map(
      (host) => ask(check, host, '127.0.0.1', socket) === undefined,
    );
    expect(answers).toEqual([true, false, false, true, true, false, false, true]);
  });

  test('a connection on another interface is not checked by default; one on loopback always is', () => {
    const check = hostPolicy(undefined);
    const remote = { localAddress: '10.0.0.5' };
    const local = { localAddress: '::ffff:127.0.0.1' };
    expect(ask(check, 'evil.example', '10.0.0.5', remote)).toBeUndefined();
    expect(ask(check, 'evil.example', '', local)?.message).toMatch(/Forbidden: Host "evil.example"/);
    expect(ask(check, 'evil.example', '10.0.0.5', remote)).toBeUndefined();
  });

  test('a list applies to every connection, with the same memory', () => {
    const check = hostPolicy(['mcp.example.com']);
    const remote = { localAddress: '10.0.0.5' };
    expect(ask(check, 'mcp.example.com:443', '', remote)).toBeUndefined();
    expect(ask(check, 'evil.example', '', remote)).toBeDefined();
    expect(ask(check, 'MCP.example.com', '', remote)).toBeUndefined();
  });
});
