import 'reflect-metadata';
import { jest } from '@jest/globals';
import { McpServer, Resource } from '@decorum/core';
import { UriTemplate } from '../src/registry/uri-template.js';
import { capturingLogger, harness } from './support/engine-harness.js';
import { request } from '@decorum-internal/test-support';

@McpServer({ name: 'routing', version: '1.0.0' })
class Routing {
  @Resource({ uriTemplate: 'test://template/{id}/data' }) data({ id }: { id: string }) {
    return id;
  }
}

const { logger, lines } = capturingLogger();
const { call } = harness([Routing], { logger });
const flushed = () => new Promise((resolve) => setImmediate(resolve));

/** Errors raised before a handler runs (while finding its target) are answered and logged like any other. */
describe('errors while routing', () => {
  beforeEach(() => lines.splice(0));

  test('a malformed percent-escape is "Resource not found" (-32602), not a failure', async () => {
    const uri = 'test://template/%zz/data';
    expect((await call(request(1, 'resources/read', { uri })))!.error).toEqual({ code: -32602, message: `Resource not found: ${uri}`, data: { uri } });
    await flushed();
    expect(lines).toEqual([]);
  });

  test('a bug while routing answers a generic -32603 and logs the error with its stack', async () => {
    const spy = jest.spyOn(UriTemplate.prototype, 'match').mockImplementation(() => {
      throw new TypeError('matcher exploded at /srv/secret');
    });
    try {
      const response = (await call(request(7, 'resources/read', { uri: 'test://template/1/data' })))!;
      expect(response).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'Internal error' } });
    } finally {
      spy.mockRestore();
    }
    await flushed();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, method: 'resources/read', err: { type: 'TypeError', message: 'matcher exploded at /srv/secret' } });
    expect(lines[0].err.stack).toContain('TypeError');
  });
});
