import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { harness } from '../../packages/core/test/support/engine-harness.js';
import { request } from '@decorum-internal/test-support';
import { MrtrServer } from '../../packages/core/test/support/mrtr-fixture.js';

/** Our MRTR results and input requests, validated against the spec's own JSON Schema. */
const SPEC = fileURLToPath(new URL('../spec-data/2026-07-28/', import.meta.url));
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(JSON.parse(readFileSync(`${SPEC}schema.json`, 'utf8')), 'mcp');
const check = (definition: string, value: unknown) => {
  const validate = ajv.getSchema(`mcp#/$defs/${definition}`)!;
  return validate(value) ? 'valid' : JSON.stringify(validate.errors?.slice(0, 5));
};

describe('MRTR results match the 2026-07-28 schema', () => {
  const { call } = harness([MrtrServer], { mrtr: { keys: ['C'.repeat(43) + '='] } });
  const caps = { capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} } };

  test.each([
    ['delete_file', { path: '/a' }, 'ElicitRequest'],
    ['wizard', {}, 'ElicitRequest'],
    ['login', {}, 'ElicitRequest'],
    ['summarize', {}, 'CreateMessageRequest'],
    ['list_roots', {}, 'ListRootsRequest'],
  ])('%s → InputRequiredResult with a valid %s', async (name, args, requestDef) => {
    const response = await call(request(1, 'tools/call', { name, arguments: args }, caps));
    expect(check('InputRequiredResult', response?.result)).toBe('valid');
    const [inputRequest] = Object.values(response?.result.inputRequests as Record<string, unknown>);
    expect(check(requestDef, inputRequest)).toBe('valid');
    expect(check('InputRequest', inputRequest)).toBe('valid');
  });

  test('the DTO-made form is a valid ElicitRequestFormParams', async () => {
    const response = await call(request(1, 'tools/call', { name: 'wizard', arguments: {} }, caps));
    expect(check('ElicitRequestFormParams', response?.result.inputRequests['elicit-1'].params)).toBe('valid');
  });
});
