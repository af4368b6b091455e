/**
 * What a tool's return value becomes on the wire (docs/results.md), over a real stdio process:
 * `undefined` is "OK", a Date is its ISO-8601 text, bytes are a -32603 error that says what to
 * return instead, and a resource's bytes are a blob with the declared MIME type.
 */
import { request, StdioProcess } from '@decorum-internal/test-support';

const ISO = '2026-07-28T12:30:00.000Z';

describe('tool results from plain values, over stdio', () => {
  const server = StdioProcess.serve('test/fixtures/result-shapes.ts');
  afterAll(async () => {
    server.child.stdin.end();
    await server.exit();
  });
  const call = (id: number, name: string) => server.request(request(id, 'tools/call', { name, arguments: {} }));

  test('a handler that returns nothing answers one "OK" text block, sync or async', async () => {
    for (const [id, name] of [
      [1, 'nothing'],
      [2, 'nothing_async'],
    ] as const) {
      const { result } = await call(id, name);
      expect(result).toMatchObject({ resultType: 'complete', isError: false, content: [{ type: 'text', text: 'OK' }] });
      expect(result.content).toHaveLength(1);
    }
  });

  test('null is a value: its JSON, "null"', async () => {
    expect((await call(3, 'null_value')).result.content).toEqual([{ type: 'text', text: 'null' }]);
  });

  test('a Date is its ISO-8601 text, without JSON quotes; so is any value whose JSON is a string (a URL)', async () => {
    expect((await call(4, 'a_date')).result.content).toEqual([{ type: 'text', text: ISO }]);
    expect((await call(5, 'a_url')).result.content).toEqual([{ type: 'text', text: 'https://example.com/a?b=1' }]);
    // Inside an object a Date stays JSON (a quoted ISO string), like every nested value.
    expect((await call(6, 'an_object')).result.content).toEqual([{ type: 'text', text: `{"n":1,"at":"${ISO}"}` }]);
  });

  test.each([
    ['a_buffer', 'Buffer', 7],
    ['a_uint8array', 'Uint8Array', 8],
  ])('bytes (%s: a %s) are a -32603 error naming the tool and what to return instead, never {"type":"Buffer",…}', async (name, type, id) => {
    const response = await call(id, name);
    expect(response.result).toBeUndefined();
    expect(response.error.code).toBe(-32603);
    expect(response.error.message).toBe(
      `Tool "${name}" returned bytes (${type}), which a tool result cannot carry without a MIME type: return image(bytes, mimeType), audio(bytes, mimeType) or embeddedResource(uri, bytes, mimeType) from @decorum/core, or text`,
    );
  });

  test('a function has no JSON form: a -32603 error, not a text block without text', async () => {
    const response = await call(9, 'a_function');
    expect(response.error).toMatchObject({ code: -32603, message: 'Tool "a_function" returned a function, which has no JSON form: return text or data' });
  });

  test('with output:, structuredContent is the JSON of the value (a nested Date is its ISO string)', async () => {
    const { result } = await call(10, 'structured_date');
    expect(result.structuredContent).toEqual({ label: 'release', at: ISO });
    expect(result.content).toEqual([{ type: 'text', text: `{"label":"release","at":"${ISO}"}` }]);
  });

  test('a resource has a MIME type, so its bytes are a base64 blob', async () => {
    const { result } = await server.request(request(11, 'resources/read', { uri: 'bytes://logo' }));
    expect(result.contents).toEqual([{ uri: 'bytes://logo', mimeType: 'image/png', blob: Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64') }]);
  });
});
