import { harness } from './support/engine-harness.js';
import { request } from '@decorum-internal/test-support';
import { MrtrServer, runs } from './support/mrtr-fixture.js';

const ELICIT = { capabilities: { elicitation: {} } };
const KEYS = ['A'.repeat(43) + '='];

describe('MRTR elicitation through the engine', () => {
  const { call } = harness([MrtrServer], { mrtr: { keys: KEYS } });

  test('two rounds: input_required with a form request, then complete on the retry', async () => {
    const first = await call(request(1, 'tools/call', { name: 'delete_file', arguments: { path: '/a.txt' } }, ELICIT));
    expect(first?.result).toEqual({
      resultType: 'input_required',
      inputRequests: {
        confirm: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Delete /a.txt?',
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean', title: 'Really?' } }, required: ['ok'] },
          },
        },
      },
      requestState: expect.stringMatching(/^[\w-]+\.\.[\w-]+\.[\w-]+\.[\w-]+$/), // a compact JWE: header..iv.ciphertext.tag
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'mrtr', version: '1.0.0' } },
    });
    expect(first?.result).not.toHaveProperty('ttlMs');
    expect(first?.result).not.toHaveProperty('cacheScope');
    expect(runs.deleted).toEqual([]);
    const second = await call(
      request(
        2,
        'tools/call',
        {
          name: 'delete_file',
          arguments: { path: '/a.txt' },
          requestState: first?.result.requestState,
          inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
        },
        ELICIT,
      ),
    );
    expect(second?.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'deleted /a.txt' }] });
    expect(runs.deleted).toEqual(['/a.txt']);
  });

  test('answers sent with the first request (no requestState) count; unknown keys are ignored', async () => {
    const response = await call(
      request(
        3,
        'tools/call',
        {
          name: 'delete_file',
          arguments: { path: '/c' },
          inputResponses: { confirm: { action: 'accept', content: { ok: true } }, other: { action: 'accept' } },
        },
        ELICIT,
      ),
    );
    expect(response?.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'deleted /c' }] });
    const invalid = await call(
      request(
        4,
        'tools/call',
        { name: 'delete_file', arguments: { path: '/d' }, inputResponses: { confirm: { action: 'accept', content: { ok: 'yes' } } } },
        ELICIT,
      ),
    );
    expect(invalid?.result.resultType).toBe('input_required');
  });

  test('decline is an answer, not an error', async () => {
    const first = await call(request(1, 'tools/call', { name: 'delete_file', arguments: { path: '/b' } }, ELICIT));
    const second = await call(
      request(
        2,
        'tools/call',
        { name: 'delete_file', arguments: { path: '/b' }, requestState: first?.result.requestState, inputResponses: { confirm: { action: 'decline' } } },
        ELICIT,
      ),
    );
    expect(second?.result.content[0].text).toBe('kept /b');
  });

  test('three rounds: DTO, TypeBox and plain forms; ctx.once runs once across all rounds', async () => {
    runs.once = 0;
    runs.wizard = 0;
    const args = { name: 'wizard', arguments: {} };
    const r1 = await call(request(1, 'tools/call', args, ELICIT));
    expect(r1?.result.resultType).toBe('input_required');
    expect(Object.keys(r1?.result.inputRequests)).toEqual(['elicit-1']);
    expect(r1?.result.inputRequests['elicit-1'].params.requestedSchema).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, stars: { type: 'integer', minimum: 1, maximum: 5 }, color: { type: 'string', enum: ['red', 'green'] } },
      required: ['name', 'stars', 'color'],
    });
    const r2 = await call(
      request(
        2,
        'tools/call',
        {
          ...args,
          requestState: r1?.result.requestState,
          inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Ada', stars: 5, color: 'red' } } },
        },
        ELICIT,
      ),
    );
    expect(Object.keys(r2?.result.inputRequests)).toEqual(['elicit-2']);
    expect(r2?.result.inputRequests['elicit-2'].params.requestedSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string', minLength: 2 }, nights: { type: 'integer', minimum: 1 } },
      required: ['city', 'nights'],
    });
    // Only the newest answer is sent: earlier ones travel inside requestState.
    const r3 = await call(
      request(
        3,
        'tools/call',
        { ...args, requestState: r2?.result.requestState, inputResponses: { 'elicit-2': { action: 'accept', content: { city: 'Oslo', nights: 2 } } } },
        ELICIT,
      ),
    );
    expect(Object.keys(r3?.result.inputRequests)).toEqual(['elicit-3']);
    const r4 = await call(
      request(
        4,
        'tools/call',
        { ...args, requestState: r3?.result.requestState, inputResponses: { 'elicit-3': { action: 'accept', content: { ok: true } } } },
        ELICIT,
      ),
    );
    expect(r4?.result).toMatchObject({ resultType: 'complete', content: [{ text: 'r-1: Ada (5★, red) → Oslo × 2, booked' }] });
    expect(runs.wizard).toBe(4);
    expect(runs.once).toBe(1);
  });

  test('missing answers are asked again with a fresh input_required, not an error', async () => {
    const first = await call(request(1, 'tools/call', { name: 'delete_file', arguments: { path: '/c' } }, ELICIT));
    const again = await call(
      request(2, 'tools/call', { name: 'delete_file', arguments: { path: '/c' }, requestState: first?.result.requestState, inputResponses: {} }, ELICIT),
    );
    expect(again?.result).toMatchObject({ resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create' } } });
    expect(again?.result.requestState).not.toBe(first?.result.requestState);
    const done = await call(
      request(
        3,
        'tools/call',
        {
          name: 'delete_file',
          arguments: { path: '/c' },
          requestState: again?.result.requestState,
          inputResponses: { confirm: { action: 'accept', content: { ok: false } } },
        },
        ELICIT,
      ),
    );
    expect(done?.result.content[0].text).toBe('kept /c');
  });

  test('partial answers: answered rounds are kept, the unanswered one is asked again', async () => {
    const args = { name: 'wizard', arguments: {} };
    const r1 = await call(request(1, 'tools/call', args, ELICIT));
    const r2 = await call(
      request(
        2,
        'tools/call',
        {
          ...args,
          requestState: r1?.result.requestState,
          inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Bo', stars: 1, color: 'green' } } },
        },
        ELICIT,
      ),
    );
    const r2b = await call(request(3, 'tools/call', { ...args, requestState: r2?.result.requestState }, ELICIT));
    expect(Object.keys(r2b?.result.inputRequests)).toEqual(['elicit-2']);
  });

  test('accepted content that does not match the schema is asked again', async () => {
    const first = await call(request(1, 'tools/call', { name: 'wizard', arguments: {} }, ELICIT));
    const bad = await call(
      request(
        2,
        'tools/call',
        {
          name: 'wizard',
          arguments: {},
          requestState: first?.result.requestState,
          inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Ada', stars: 9, color: 'blue' } } },
        },
        ELICIT,
      ),
    );
    expect(bad?.result).toMatchObject({ resultType: 'input_required', inputRequests: { 'elicit-1': { method: 'elicitation/create' } } });
    const missingField = await call(
      request(
        3,
        'tools/call',
        {
          name: 'wizard',
          arguments: {},
          requestState: bad?.result.requestState,
          inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Ada' } } },
        },
        ELICIT,
      ),
    );
    expect(Object.keys(missingField?.result.inputRequests)).toEqual(['elicit-1']);
  });

  test('unknown extra response keys and extra content fields are ignored', async () => {
    const first = await call(request(1, 'tools/call', { name: 'delete_file', arguments: { path: '/d' } }, ELICIT));
    const second = await call(
      request(
        2,
        'tools/call',
        {
          name: 'delete_file',
          arguments: { path: '/d' },
          requestState: first?.result.requestState,
          inputResponses: { confirm: { action: 'accept', content: { ok: true, extra: 'x' } }, stray: { action: 'accept' }, 'elicit-9': 42 },
        },
        ELICIT,
      ),
    );
    expect(second?.result.content[0].text).toBe('deleted /d');
  });

  test('a malformed ElicitResult is -32602', async () => {
    const first = await call(request(1, 'tools/call', { name: 'delete_file', arguments: { path: '/e' } }, ELICIT));
    const second = await call(
      request(
        2,
        'tools/call',
        { name: 'delete_file', arguments: { path: '/e' }, requestState: first?.result.requestState, inputResponses: { confirm: { action: 'maybe' } } },
        ELICIT,
      ),
    );
    expect(second?.error).toMatchObject({ code: -32602, message: expect.stringContaining('inputResponses["confirm"]') });
    const notObject = await call(request(3, 'tools/call', { name: 'delete_file', arguments: { path: '/e' }, inputResponses: 'yes' }, ELICIT));
    expect(notObject?.error.code).toBe(-32602);
  });

  test('without the elicitation capability: -32021 with data.requiredCapabilities, and no input request', async () => {
    const response = await call(request(1, 'tools/call', { name: 'delete_file', arguments: { path: '/f' } }, { capabilities: {} }));
    expect(response?.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
    expect(runs.deleted).not.toContain('/f');
  });

  test('{ optional: true } falls back to undefined without the capability', async () => {
    const response = await call(request(1, 'tools/call', { name: 'maybe_confirm', arguments: {} }, { capabilities: {} }));
    expect(response?.result).toMatchObject({ resultType: 'complete', content: [{ text: 'no elicitation: went ahead' }] });
    const withCap = await call(request(2, 'tools/call', { name: 'maybe_confirm', arguments: {} }, ELICIT));
    expect(withCap?.result.resultType).toBe('input_required');
  });

  test('URL mode needs elicitation.url; a form-only client never gets a url request', async () => {
    const url = await call(request(1, 'tools/call', { name: 'login', arguments: {} }, { capabilities: { elicitation: { url: {} } } }));
    expect(url?.result.inputRequests).toEqual({
      oauth: { method: 'elicitation/create', params: { mode: 'url', message: 'Sign in to the provider', url: 'https://auth.example.test/start?session=x' } },
    });
    const done = await call(
      request(
        2,
        'tools/call',
        { name: 'login', arguments: {}, requestState: url?.result.requestState, inputResponses: { oauth: { action: 'accept' } } },
        { capabilities: { elicitation: { url: {} } } },
      ),
    );
    expect(done?.result.content[0].text).toBe('url accept');
    for (const capabilities of [{ elicitation: {} }, { elicitation: { form: {} } }]) {
      const refused = await call(request(3, 'tools/call', { name: 'login', arguments: {} }, { capabilities }));
      expect(refused?.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { url: {} } } } });
      expect(JSON.stringify(refused)).not.toContain('"mode":"url"');
    }
  });

  test('a url-only client is not sent forms', async () => {
    const response = await call(request(1, 'tools/call', { name: 'delete_file', arguments: { path: '/g' } }, { capabilities: { elicitation: { url: {} } } }));
    expect(response?.error.code).toBe(-32021);
  });

  test('a handler that swallows the signal still answers input_required', async () => {
    const response = await call(request(1, 'tools/call', { name: 'swallow', arguments: {} }, ELICIT));
    expect(response?.result).toMatchObject({ resultType: 'input_required', inputRequests: { 'elicit-1': { method: 'elicitation/create' } } });
  });

  test('a schema outside the flat subset is an error naming the property; the journal is bounded', async () => {
    const nested = await call(request(1, 'tools/call', { name: 'bad_schema', arguments: {} }, ELICIT));
    expect(nested?.result.isError).toBe(true);
    const big = await call(request(2, 'tools/call', { name: 'big_journal', arguments: {} }, ELICIT));
    expect(big?.result.isError).toBe(true);
  });

  test('prompts/get and resources/read also speak MRTR; retried reads are not cacheable', async () => {
    const prompt = await call(request(1, 'prompts/get', { name: 'tone' }, ELICIT));
    expect(prompt?.result.resultType).toBe('input_required');
    const promptDone = await call(
      request(
        2,
        'prompts/get',
        { name: 'tone', requestState: prompt?.result.requestState, inputResponses: { 'elicit-1': { action: 'accept', content: { tone: 'formal' } } } },
        ELICIT,
      ),
    );
    expect(promptDone?.result.messages[0].content.text).toBe('Write formally');
    const read = await call(request(3, 'resources/read', { uri: 'mem://secret' }, ELICIT));
    expect(read?.result.resultType).toBe('input_required');
    expect(read?.result).not.toHaveProperty('ttlMs');
    const readDone = await call(
      request(
        4,
        'resources/read',
        { uri: 'mem://secret', requestState: read?.result.requestState, inputResponses: { 'elicit-1': { action: 'accept', content: { ok: true } } } },
        ELICIT,
      ),
    );
    expect(readDone?.result).toMatchObject({ resultType: 'complete', contents: [{ text: 'the secret' }], ttlMs: 0, cacheScope: 'private' });
  });

  test('discover and lists never answer input_required, even when sent MRTR fields', async () => {
    for (const method of ['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
      const response = await call(request(method, method, { inputResponses: { x: { action: 'accept' } }, requestState: 'v1.xyz' }, ELICIT));
      expect({ method, resultType: response?.result?.resultType }).toEqual({ method, resultType: 'complete' });
    }
  });
});
