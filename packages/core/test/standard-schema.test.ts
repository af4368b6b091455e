import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { z } from 'zod';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import { compileSchema } from '../src/schema/compiled-input.js';
import { request, StdioProcess } from '@decorum-internal/test-support';

/**
 * Standard Schema input and output (zod 4, valibot, ArkType), over stdio: a real `mcp-serve`
 * child serving fixtures/standard-schema-server.ts.
 */
const server = StdioProcess.serve('packages/core/test/fixtures/standard-schema-server.ts');
afterAll(() => server.kill());

let id = 0;
const call = async (name: string, args: unknown) => (await server.request(request(++id, 'tools/call', { name, arguments: args }))).result;
const calls = async () => Number((await call('calls', {})).content[0].text);

const LIBRARIES = ['zod', 'valibot', 'arktype'] as const;

describe('Standard Schema tools over stdio', () => {
  let tools: Array<Record<string, any>>;
  const tool = (name: string) => tools.find((t) => t.name === name)!;
  // One wait for the server: if it did not start, every test fails at once with its stderr.
  beforeAll(async () => {
    tools = (await server.request(request(++id, 'tools/list'))).result.tools;
  });

  test('tools/list shows each schema as JSON Schema, not the library internals', () => {
    for (const name of LIBRARIES) {
      const schema = tool(name).inputSchema;
      expect(schema).toMatchObject({ type: 'object', properties: { n: { type: 'integer', minimum: 0 }, tag: { type: 'string' } }, required: ['n'] });
      expect(JSON.stringify(schema)).not.toMatch(/"def"|~standard|"_zod"|"kind"|"~run"/);
      // MCP's default dialect, left unnamed as for DTO and TypeBox schemas: a draft-07 validator would refuse the URI.
      expect(schema).not.toHaveProperty('$schema');
    }
    expect(tool('double').outputSchema).toMatchObject({ type: 'object', properties: { doubled: { type: 'integer' } }, required: ['doubled'] });
  });

  test.each(LIBRARIES)('%s: {"n": -1} is refused with a /n issue and never reaches the handler', async (name) => {
    const before = await calls();
    const result = await call(name, { n: -1 });
    expect(result.isError).toBe(true);
    expect(result.structuredContent.issues).toEqual([{ pointer: '/n', keyword: 'minimum', message: expect.any(String) }]);
    expect(result._meta['dev.decorum/validation'].issues).toEqual(result.structuredContent.issues);
    expect(result.content[0].text).toMatch(new RegExp(`^Invalid arguments for tool "${name}":\\n- /n: .+ \\(minimum\\)$`));
    expect(await calls()).toBe(before);
  });

  test.each(LIBRARIES)('%s: a missing property is "required", a wrong type is "type"', async (name) => {
    expect((await call(name, {})).structuredContent.issues).toEqual([{ pointer: '/n', keyword: 'required', message: 'is required' }]);
    expect((await call(name, { n: 'one' })).structuredContent.issues).toEqual([{ pointer: '/n', keyword: 'type', message: expect.any(String) }]);
  });

  test.each(LIBRARIES)('%s: the handler gets the validated output value, after transforms', async (name) => {
    const result = await call(name, { n: 2, tag: 'abc' });
    expect(result.isError).toBe(false);
    expect(JSON.parse(result.content[0].text)).toEqual({ n: 2, tag: 3 });
  });

  test('output: the result is checked against the Standard Schema and becomes structuredContent', async () => {
    expect(await call('double', { n: 21 })).toMatchObject({ isError: false, structuredContent: { doubled: 42 } });
    const broken = await server.request(request(++id, 'tools/call', { name: 'broken_output', arguments: {} }));
    expect(broken.error).toMatchObject({ code: -32603, message: 'Tool "broken_output" produced a result that does not match its outputSchema' });
  });

  test('a schema that validates asynchronously is awaited', async () => {
    expect((await call('async_check', { n: 13 })).structuredContent.issues).toEqual([{ pointer: '/n', keyword: 'schema', message: 'must not be 13' }]);
    expect((await call('async_check', { n: 12 })).content[0].text).toBe('{"n":12}');
  });
});

describe('the JSON Schema of a Standard Schema', () => {
  test.each([
    ['zod', z.object({ n: z.number() })],
    ['valibot', toStandardJsonSchema(v.object({ n: v.number() }))],
    ['arktype', type({ n: 'number' })],
  ])("%s: listed without the 2020-12 $schema the library writes (MCP's default dialect)", (_name, schema) => {
    expect(compileSchema(schema).jsonSchema).toEqual({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] });
  });
});

describe('the validator of a Standard Schema', () => {
  test('answers synchronously when the schema does (no promise on the hot path)', () => {
    const compiled = compileSchema(z.object({ n: z.number() }));
    expect(compiled.strategy).toBe('standard-schema');
    expect(compiled.validate({ n: 1 })).toEqual({ ok: true, value: { n: 1 } });
    expect(compiled.validate({ n: 'x' })).toEqual({ ok: false, issues: [{ pointer: '/n', keyword: 'type', message: expect.any(String) }] });
  });

  test('pointers follow RFC 6901 through nested keys and array indexes', () => {
    const compiled = compileSchema(z.object({ 'a/b': z.array(z.object({ '~c': z.string().min(2) })) }));
    expect(compiled.validate({ 'a/b': [{ '~c': 'ok' }, { '~c': 'x' }] })).toEqual({
      ok: false,
      issues: [{ pointer: '/a~1b/1/~0c', keyword: 'minLength', message: expect.any(String) }],
    });
  });
});
