// Hardening item 4: `{"constructor": "x"}` inside a free-form `@IsObject()` DTO property is valid
// input (class-transformer used to throw "targetType is not a constructor": -32603).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { compileClassValidatorPath, compileDtoValidator } from '../../packages/core/src/schema/dto/validator.js';
import { startApp, type TestApp } from '../../packages/fastify/test/support/app.js';
import { rpc } from '../../packages/fastify/test/support/http.js';
import { StdioProcess, request } from '@decorum-internal/test-support';
import { Hardening, TagArgs } from './fixtures/hardening-server.js';

const args = { name: 'n', attributes: { constructor: 'x', deep: [{ constructor: { prototype: 1 } }], plain: 1 } };
const echoed = JSON.stringify({ name: 'n', attributes: args.attributes, ownConstructor: true });

describe('both DTO paths keep an own "constructor" key as data', () => {
  test.each([
    ['the fast path', () => compileDtoValidator(TagArgs)],
    ['the class-validator path', () => compileClassValidatorPath(TagArgs)],
  ])('%s', async (_name, compile) => {
    const outcome = await compile()(structuredClone(args));
    expect(outcome.ok).toBe(true);
    if (outcome.ok) {
      expect(outcome.value).toBeInstanceOf(TagArgs);
      expect(JSON.parse(JSON.stringify(outcome.value))).toEqual(args);
    }
  });

  test('an unknown key holding one, too (class-transformer copies unknown keys)', async () => {
    const outcome = await compileClassValidatorPath(TagArgs)({ ...structuredClone(args), extra: { constructor: 'y' } });
    expect(outcome.ok && (outcome.value as Record<string, unknown>).extra).toEqual({ constructor: 'y' });
  });
});

describe('over HTTP', () => {
  let served: TestApp;
  beforeAll(async () => (served = await startApp({ servers: [Hardening] })));
  afterAll(() => served.close());
  test('the call succeeds', async () => {
    const res = await rpc(served.url, 1, 'tools/call', { name: 'tag', arguments: args });
    expect(res.status).toBe(200);
    expect(res.json.result.content[0].text).toBe(echoed);
  });
});

test('over stdio (mcp-serve) the call succeeds', async () => {
  const proc = StdioProcess.serve('test/hardening/fixtures/hardening-server.ts');
  try {
    const answer = await proc.request(request(1, 'tools/call', { name: 'tag', arguments: args }));
    expect(answer.result?.content[0].text).toBe(echoed);
  } finally {
    proc.kill();
  }
});
