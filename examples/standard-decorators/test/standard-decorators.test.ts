import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request, MCP_SERVE, ROOT, StdioProcess } from '@decorum-internal/test-support';

const run = promisify(execFile);
const EXAMPLE = join(ROOT, 'examples/standard-decorators');
const OUT = join(EXAMPLE, 'dist');

/**
 * The example compiled without experimentalDecorators — by esbuild and by TypeScript itself — so
 * every decorator runs in the TC39 standard form, then served by mcp-serve as plain JavaScript.
 */
const COMPILERS = {
  esbuild: { output: join(OUT, 'esbuild/src/server.js'), helper: '__decorateElement' },
  tsc: { output: join(OUT, 'tsc/server.js'), helper: '__esDecorate' },
};

beforeAll(async () => {
  rmSync(OUT, { recursive: true, force: true });
  await Promise.all([
    run(join(ROOT, 'node_modules/.bin/esbuild'), ['src/server.ts', 'test/fixtures/missing-input.ts', '--format=esm', '--platform=node', '--target=node20', '--outdir=dist/esbuild', '--log-level=warning'], { cwd: EXAMPLE }),
    run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--outDir', 'dist/tsc'], { cwd: EXAMPLE }),
  ]);
}, 60_000);
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

describe.each(Object.entries(COMPILERS))('standard decorators compiled by %s', (_compiler, { output, helper }) => {
  let p: StdioProcess;
  beforeAll(() => {
    p = StdioProcess.serve(output);
  });
  afterAll(() => p.kill());

  it('the output uses standard decorators and carries no design:paramtypes', () => {
    const code = readFileSync(output, 'utf8');
    expect(code).toContain(helper);
    expect(code).not.toContain('design:paramtypes');
  });

  it('serves every decorated member, with the schemas of its input: (TypeBox, and a DTO with @Field)', async () => {
    const { result } = await p.request(request(1, 'tools/list'));
    expect(result.tools.map((t: { name: string }) => t.name)).toEqual(['forecast', 'current', 'cities']);
    const current = result.tools.find((t: { name: string }) => t.name === 'current');
    expect(current.inputSchema.properties.city).toEqual({ type: 'string', maxLength: 40, description: 'The city to look up' });
    expect(current.inputSchema.required).toEqual(['city', 'units']);
    const discover = await p.request(request(2, 'server/discover'));
    expect(discover.result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'standard-weather', version: '1.0.0' });
    expect(discover.result.capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {}, completions: {} });
  });

  it('validates and calls tools, reads the template, gets and completes the prompt', async () => {
    expect((await p.request(request(3, 'tools/call', { name: 'forecast', arguments: { location: 'Oslo', days: 3 } }))).result.content[0].text).toBe('3-day forecast for Oslo: sunny');
    expect((await p.request(request(4, 'tools/call', { name: 'current', arguments: { city: 'Paris', units: 'metric' } }))).result.content[0].text).toBe('Paris: 20°C');
    const invalid = (await p.request(request(5, 'tools/call', { name: 'current', arguments: { city: 'Paris', units: 'kelvin' } }))).result;
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent.issues).toEqual([expect.objectContaining({ pointer: '/units' })]);
    expect((await p.request(request(6, 'resources/read', { uri: 'weather://Rome' }))).result.contents[0].text).toBe('Report for Rome');
    expect((await p.request(request(7, 'prompts/get', { name: 'trip', arguments: { city: 'Lima' } }))).result.messages[0].content.text).toBe('Plan a day in Lima');
    const completion = await p.request(request(8, 'completion/complete', { ref: { type: 'ref/prompt', name: 'trip' }, argument: { name: 'city', value: 'L' } }));
    expect(completion.result.completion.values).toEqual(['London', 'Lisbon']);
  });
});

it('a standard-decorated handler whose input would be inferred from its parameter type fails at start-up, saying why', async () => {
  const failure = await run(process.execPath, [MCP_SERVE, join(OUT, 'esbuild/test/fixtures/missing-input.js'), '--list'], { cwd: ROOT }).catch((error: { code: number; stderr: string }) => error);
  expect((failure as { code: number }).code).toBe(1);
  expect((failure as { stderr: string }).stderr).toMatch(/^mcp-serve: DECORUM_ERR_MISSING_METADATA: MissingInput\.search has parameters but no decorator metadata.*TC39 standard decorators .* never carry parameter types.*pass input:/);
});
