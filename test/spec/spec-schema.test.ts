import 'reflect-metadata';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { IsString } from 'class-validator';
import { Type } from 'typebox';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Field, image, McpServer, Prompt, Resource, Tool } from '@decorum/core';
import { harness } from '../../packages/core/test/support/engine-harness.js';
import { request } from '@decorum-internal/test-support';

/** Our responses, validated against the spec's own JSON Schema (draft 2020-12). */
const SPEC = fileURLToPath(new URL('../spec-data/2026-07-28/', import.meta.url));
const schema = JSON.parse(readFileSync(`${SPEC}schema.json`, 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(schema, 'mcp');
const check = (definition: string, value: unknown) => {
  const validate = ajv.getSchema(`mcp#/$defs/${definition}`)!;
  const ok = validate(value);
  return ok ? 'valid' : JSON.stringify(validate.errors?.slice(0, 5));
};

class WeatherArgs {
  @Field({ description: 'City name or zip code' }) @IsString() location!: string;
}
class ReviewArgs {
  @IsString() code!: string;
}

@McpServer({ name: 'ExampleServer', version: '1.0.0', instructions: 'Example.' })
class ExampleServer {
  @Tool({ title: 'Weather Information Provider', description: 'Get current weather information for a location' })
  get_weather(args: WeatherArgs) {
    return `Current weather in ${args.location}:\nTemperature: 72°F\nConditions: Partly cloudy`;
  }
  @Tool({ input: Type.Object({ n: Type.Integer() }), output: Type.Object({ doubled: Type.Integer() }) })
  double(args: { n: number }) {
    return { doubled: args.n * 2 };
  }
  @Tool({ input: null }) picture() {
    return image(Buffer.from('png'), 'image/png');
  }
  @Resource({ uri: 'file:///project/src/main.rs', mimeType: 'text/x-rust' }) main() {
    return 'fn main() {}';
  }
  @Resource({ uriTemplate: 'file:///project/{+path}' }) file({ path }: { path: string }) {
    return Buffer.from(path);
  }
  @Prompt({ description: 'Review a piece of code' }) code_review(args: ReviewArgs) {
    return `Please review:\n${args.code}`;
  }
}

const { call } = harness([ExampleServer], { pageSize: 2 });

describe('responses validate against schema.json', () => {
  test.each([
    ['server/discover', {}, 'DiscoverResultResponse'],
    ['tools/list', {}, 'ListToolsResultResponse'],
    ['tools/call', { name: 'get_weather', arguments: { location: 'Paris' } }, 'CallToolResultResponse'],
    ['tools/call', { name: 'get_weather', arguments: {} }, 'CallToolResultResponse'],
    ['tools/call', { name: 'double', arguments: { n: 2 } }, 'CallToolResultResponse'],
    ['tools/call', { name: 'picture' }, 'CallToolResultResponse'],
    ['prompts/list', {}, 'ListPromptsResultResponse'],
    ['prompts/get', { name: 'code_review', arguments: { code: 'x' } }, 'GetPromptResultResponse'],
    ['resources/list', {}, 'ListResourcesResultResponse'],
    ['resources/templates/list', {}, 'ListResourceTemplatesResultResponse'],
    ['resources/read', { uri: 'file:///project/src/main.rs' }, 'ReadResourceResultResponse'],
    ['resources/read', { uri: 'file:///project/a/b.bin' }, 'ReadResourceResultResponse'],
  ])('%s %j → %s', async (method, params, definition) => {
    const response = await call(request('r1', method, params));
    expect(check(definition, response)).toBe('valid');
  });

  test('a second tools/list page validates too', async () => {
    const first = await call(request(1, 'tools/list'));
    const second = await call(request(2, 'tools/list', { cursor: first!.result.nextCursor }));
    expect(check('ListToolsResultResponse', second)).toBe('valid');
  });

  test.each([
    ['unknown tool', request(1, 'tools/call', { name: 'nope' }), 'InvalidParamsError'],
    ['unknown method', request(1, 'foo/bar'), 'MethodNotFoundError'],
    [
      'unsupported version',
      {
        ...request(1, 'tools/list'),
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '1999-01-01', 'io.modelcontextprotocol/clientCapabilities': {} } },
      },
      'UnsupportedProtocolVersionError',
    ],
    ['batch', [request(1, 'tools/list')], 'InvalidRequestError'],
    ['missing _meta', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'InvalidParamsError'],
  ])('%s → a %s response', async (_name, message, definition) => {
    const response = await call(message);
    expect(check('JSONRPCErrorResponse', response)).toBe('valid');
    // Some error definitions describe the error object, others the whole response.
    const asResponse = check(definition, response);
    expect(asResponse === 'valid' ? asResponse : check(definition, response!.error)).toBe('valid');
  });
});

describe('the spec examples, fed through the engine', () => {
  const served = new Set([
    'DiscoverRequest',
    'ListToolsRequest',
    'CallToolRequest',
    'ListPromptsRequest',
    'GetPromptRequest',
    'ListResourcesRequest',
    'ListResourceTemplatesRequest',
    'ReadResourceRequest',
  ]);
  const examples = readdirSync(`${SPEC}examples`)
    .filter((kind) => served.has(kind))
    .flatMap((kind) => readdirSync(`${SPEC}examples/${kind}`).map((file) => [kind, file] as const));

  test('there is an example for every served method', () => {
    expect(new Set(examples.map(([kind]) => kind))).toEqual(served);
  });

  test.each(examples)('%s/%s is answered with a valid result', async (kind, file) => {
    const example = JSON.parse(readFileSync(`${SPEC}examples/${kind}/${file}`, 'utf8'));
    const response = await call(example);
    expect(response).toHaveProperty('result');
    expect(response!.id).toBe(example.id);
    expect(check(kind.replace(/Request$/, 'ResultResponse'), response)).toBe('valid');
  });
});

describe('a 2025-11-25 client, judged by its own schema', () => {
  const legacy = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  legacy.addSchema(JSON.parse(readFileSync(fileURLToPath(new URL('../spec-data/2025-11-25/schema.json', import.meta.url)), 'utf8')), 'mcp-2025');

  test('its initialize is refused with a JSON-RPC error response that 2025-11-25 accepts', async () => {
    const message = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
    };
    expect(legacy.getSchema('mcp-2025#/$defs/InitializeRequest')!(message)).toBe(true);
    const response = await call(message);
    const validate = legacy.getSchema('mcp-2025#/$defs/JSONRPCErrorResponse')!;
    expect(validate(response) ? 'valid' : JSON.stringify(validate.errors)).toBe('valid');
    expect(response!.error.code).toBe(-32022);
  });
});
