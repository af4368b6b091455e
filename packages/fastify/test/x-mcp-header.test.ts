import Fastify from 'fastify';
import { DecorumStartupError, McpHeader, McpServer, StartupErrorCode, Tool, Field } from '@decorum/core';
import { readMcpParamHeaders } from '@decorum/core/transport';
import { mcpPlugin } from '@decorum/fastify';
import { IsBoolean, IsInt, IsNumber, IsOptional, IsString } from 'class-validator';
import { Type } from 'typebox';
import { rpc } from './support/http.js';
import { injectApp } from './support/app.js';

const tool = (inputSchema: Record<string, unknown>) =>
  ({ name: 't', source: 'Test.t', definition: { name: 't', inputSchema: { type: 'object', ...inputSchema } } }) as any;
const prop = (schema: Record<string, unknown>) => tool({ properties: { p: schema } });

function rejects(input: ReturnType<typeof tool>, message: RegExp) {
  let error: unknown;
  try {
    readMcpParamHeaders(input);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(DecorumStartupError);
  expect(error).toMatchObject({ code: StartupErrorCode.INVALID_MCP_HEADER });
  expect((error as Error).message).toMatch(message);
}

/** The spec's constraints on x-mcp-header values (H-23), checked when the plugin is registered. */
describe('x-mcp-header constraints', () => {
  test('valid annotations resolve to their header, lower-cased key and property path', () => {
    const found = readMcpParamHeaders(
      tool({
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          method: { type: 'string', 'x-mcp-header': 'Method' },
          n: { type: 'integer', 'x-mcp-header': 'N', minimum: -9007199254740991, maximum: 9007199254740991 },
          flag: { type: 'boolean', 'x-mcp-header': "We!rd#$%&'*+-.^_`|~1" },
          nested: { type: 'object', properties: { deep: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } } } },
          // An "x-mcp-header" key inside data keywords is data, not an annotation.
          other: { type: 'object', default: { 'x-mcp-header': 'not an annotation' }, examples: [{ 'x-mcp-header': 1 }] },
        },
      }),
    );
    expect(found.map((f) => [f.displayName, f.key, f.path.join('.'), f.type])).toEqual([
      ['Mcp-Param-Region', 'mcp-param-region', 'region', 'string'],
      ['Mcp-Param-Method', 'mcp-param-method', 'method', 'string'],
      ['Mcp-Param-N', 'mcp-param-n', 'n', 'integer'],
      ["Mcp-Param-We!rd#$%&'*+-.^_`|~1", "mcp-param-we!rd#$%&'*+-.^_`|~1", 'flag', 'boolean'],
      ['Mcp-Param-Zone', 'mcp-param-zone', 'nested.deep.zone', 'string'],
    ]);
  });

  test.each([
    ['empty', ''],
    ['a space', 'My Region'],
    ['a colon', 'Region:'],
    ['CR/LF', 'Region\r\nX-Evil: 1'],
    ['non-ASCII', 'Régión'],
    ['a non-string', 42],
  ])('a name with %s is not an RFC 9110 token', (_why, name) => {
    rejects(prop({ type: 'string', 'x-mcp-header': name }), /RFC 9110 token/);
  });

  test('names must be unique case-insensitively', () => {
    rejects(
      tool({ properties: { a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'region' } } }),
      /repeats the name "region".*\/properties\/a/,
    );
  });

  test.each([
    ['number', { type: 'number' }],
    ['array', { type: 'array', items: { type: 'string' } }],
    ['object', { type: 'object' }],
    ['null', { type: 'null' }],
    ['a type list (nullable string)', { type: ['string', 'null'] }],
    ['no type', {}],
  ])('only string, integer or boolean properties: %s is refused', (_why, schema) => {
    rejects(prop({ ...schema, 'x-mcp-header': 'P' }), /exactly "string", "integer" or "boolean"/);
  });

  test('integers whose declared bounds exceed ±(2^53−1) are refused', () => {
    rejects(prop({ type: 'integer', maximum: 2 ** 60, 'x-mcp-header': 'N' }), /2\^53/);
  });

  test.each([
    ['items', { properties: { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'X' } } } }, '/properties/list/items'],
    ['prefixItems', { properties: { list: { type: 'array', prefixItems: [{ type: 'string', 'x-mcp-header': 'X' }] } } }, '/properties/list/prefixItems/0'],
    ['anyOf', { properties: { p: { anyOf: [{ type: 'string', 'x-mcp-header': 'X' }, { type: 'integer' }] } } }, '/properties/p/anyOf/0'],
    ['oneOf', { oneOf: [{ properties: { p: { type: 'string', 'x-mcp-header': 'X' } } }] }, '/oneOf/0/properties/p'],
    ['allOf', { allOf: [{ properties: { p: { type: 'string', 'x-mcp-header': 'X' } } }] }, '/allOf/0/properties/p'],
    ['not', { properties: { p: { not: { type: 'string', 'x-mcp-header': 'X' } } } }, '/properties/p/not'],
    ['if/then', { if: { properties: { a: { const: 1 } } }, then: { properties: { p: { type: 'string', 'x-mcp-header': 'X' } } } }, '/then/properties/p'],
    ['$defs (reached through $ref)', { properties: { p: { $ref: '#/$defs/r' } }, $defs: { r: { type: 'string', 'x-mcp-header': 'X' } } }, '/$defs/r'],
    ['additionalProperties', { additionalProperties: { type: 'string', 'x-mcp-header': 'X' } }, '/additionalProperties'],
    ['patternProperties', { patternProperties: { '^x': { type: 'string', 'x-mcp-header': 'X' } } }, '/patternProperties/^x'],
    ['the root itself', { 'x-mcp-header': 'X' }, '(the schema root)'],
  ])('an annotation reached through %s is not statically reachable', (_why, schema, at) => {
    rejects(tool(schema), new RegExp(`at ${at.replace(/[$^()/]/g, '\\$&')} is not on a property reachable`));
  });

  test('the message names the tool and where it was declared', () => {
    rejects(prop({ type: 'number', 'x-mcp-header': 'P' }), /tool "t" \(Test\.t\): x-mcp-header at \/properties\/p/);
  });
});

@McpServer({ name: 'bad', version: '1' })
class BadTypeBoxServer {
  @Tool({ input: Type.Object({ price: Type.Number({ 'x-mcp-header': 'Price' }) }) })
  quote(): string {
    return '';
  }
}

class BadDto {
  @McpHeader('Amount') @IsNumber() amount!: number;
}

@McpServer({ name: 'bad-dto', version: '1' })
class BadDtoServer {
  @Tool()
  pay(args: BadDto): string {
    return String(args.amount);
  }
}

class RegionArgs {
  @McpHeader('Region') @IsString() region!: string;
  @Field({ mcpHeader: 'Limit', description: 'Row limit' }) @IsOptional() @IsInt() limit?: number;
  @McpHeader('Dry-Run') @IsOptional() @IsBoolean() dryRun?: boolean;
  @IsString() query!: string;
}

@McpServer({ name: 'dto', version: '1' })
class DtoServer {
  @Tool()
  run(args: RegionArgs): string {
    return `${args.region}:${args.limit ?? '-'}:${args.dryRun ?? '-'}`;
  }
}

describe('x-mcp-header at registration', () => {
  test.each([
    ['a TypeBox option', BadTypeBoxServer],
    ['a DTO decorator', BadDtoServer],
  ])('an invalid annotation from %s makes register() fail with DECORUM_ERR_INVALID_MCP_HEADER', async (_how, server) => {
    const app = Fastify();
    await expect(app.register(mcpPlugin, { servers: [server] }).ready()).rejects.toMatchObject({
      name: 'DecorumStartupError',
      code: StartupErrorCode.INVALID_MCP_HEADER,
    });
    await app.close().catch(() => {});
  });

  test('DTO annotations (@McpHeader, @Field({ mcpHeader })) are served and enforced', async () => {
    const t = await injectApp({ servers: [DtoServer] });
    try {
      const list = await rpc(t.url, 1, 'tools/list');
      expect(list.json.result.tools[0].inputSchema.properties.region).toMatchObject({ type: 'string', 'x-mcp-header': 'Region' });
      const args = { region: 'eu', limit: 10, dryRun: true, query: 'q' };
      const ok = await rpc(
        t.url,
        2,
        'tools/call',
        { name: 'run', arguments: args },
        { headers: { 'mcp-param-region': 'eu', 'mcp-param-limit': '10', 'mcp-param-dry-run': 'true' } },
      );
      expect(ok.json.result.content[0].text).toBe('eu:10:true');
      const bad = await rpc(
        t.url,
        3,
        'tools/call',
        { name: 'run', arguments: args },
        { headers: { 'mcp-param-region': 'eu', 'mcp-param-limit': '11', 'mcp-param-dry-run': 'true' } },
      );
      expect(bad.status).toBe(400);
      expect(bad.json.error.message).toContain('Mcp-Param-Limit');
    } finally {
      await t.close();
    }
  });
});
