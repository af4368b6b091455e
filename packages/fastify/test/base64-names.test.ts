import { rpc } from './support/http.js';
import { injectApp, type TestApp } from './support/app.js';
import { FixtureServer } from './support/fixture-server.js';

const b64 = (s: string) => `=?base64?${Buffer.from(s, 'utf8').toString('base64')}?=`;

/** `Mcp-Name` values in the base64 sentinel `=?base64?…?=` (spec "Value Encoding"; #49). */
describe('base64-encoded Mcp-Name', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await injectApp({ servers: [FixtureServer] });
  });
  afterAll(() => t.close());

  function expectMismatch(res: { status: number; json: any }) {
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(-32020);
    expect(res.json.error.message).toContain('Mcp-Name');
  }

  test('resources/read of a non-ASCII URI with an encoded Mcp-Name is decoded and accepted', async () => {
    const res = await rpc(t.url, 1, 'resources/read', { uri: 'mem://café' }, { headers: { 'mcp-name': b64('mem://café') } });
    expect(res.status).toBe(200);
    expect(res.json.result.contents[0]).toMatchObject({ uri: 'mem://café', text: 'a URI that is not header-safe' });
  });

  test('prompts/get of a prompt named 天気 (=?base64?5aSp5rCX?=)', async () => {
    expect(b64('天気')).toBe('=?base64?5aSp5rCX?=');
    const res = await rpc(t.url, 1, 'prompts/get', { name: '天気' }, { headers: { 'mcp-name': '=?base64?5aSp5rCX?=' } });
    expect(res.status).toBe(200);
    expect(res.json.result.messages[0].content.text).toBe('Describe the weather.');
  });

  test('a header-safe name may be sent encoded too', async () => {
    const res = await rpc(t.url, 1, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { headers: { 'mcp-name': b64('echo') } });
    expect(res.status).toBe(200);
  });

  test('the decoded value must still match: encoded "other" ≠ echo', async () => {
    expectMismatch(await rpc(t.url, 1, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { headers: { 'mcp-name': b64('other') } }));
  });

  test.each([
    ['bad padding', '=?base64?SGVsbG8?='],
    ['characters outside the alphabet', '=?base64?ZW*obw==?='],
    ['the URL-safe alphabet', '=?base64?_-8=?='],
    ['non-canonical trailing bits', '=?base64?ZWNobx==?='],
    ['bytes that are not UTF-8', '=?base64?/w==?='],
  ])('malformed content (%s) → 400 -32020', async (_why, header) => {
    const res = await rpc(t.url, 1, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { headers: { 'mcp-name': header } });
    expectMismatch(res);
    expect(res.json.error.message).toMatch(/base64|UTF-8/);
  });

  test.each([
    ['upper-case markers', `=?BASE64?${Buffer.from('echo').toString('base64')}?=`],
    ['a missing suffix', `=?base64?${Buffer.from('echo').toString('base64')}`],
    ['a missing prefix', `${Buffer.from('echo').toString('base64')}?=`],
  ])('a value with %s is a literal, and so mismatches', async (_why, header) => {
    const res = await rpc(t.url, 1, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { headers: { 'mcp-name': header } });
    expectMismatch(res);
    expect(res.json.error.message).toContain('does not match body value');
  });
});
