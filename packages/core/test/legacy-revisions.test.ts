import { audio, Complete, embeddedResource, McpServer, Prompt, Resource, resourceLink, Tool, type ToolContext } from '@decorum/core';
import { Type } from 'typebox';
import { harness } from './support/engine-harness.js';
import { request as modernRequest } from '@decorum-internal/test-support';
import { legacySession } from './support/legacy-session.js';

/**
 * A legacy session gets what the revision it negotiated defines (schema/<revision>/schema.ts of
 * the specification): 2025-11-25 everything legacy, 2025-06-18 no icons, 2025-03-26 no
 * structured output, titles, _meta or resource links, 2024-11-05 no audio, tool annotations,
 * progress messages or completions capability.
 */
const ICON = { src: 'https://example.test/icon.png', mimeType: 'image/png' };
const STAMPED = { audience: ['user' as const], lastModified: '2025-01-01T00:00:00Z' };
/** Shared by every call: shaping must copy it, never change it. */
const SHARED_BLOCK = { type: 'text' as const, text: 'shared', _meta: { 'example.test/k': 1 }, annotations: STAMPED };
/** A form with what 2025-11-25 added to the fields: defaults, titled options (`oneOf`). */
const FORM = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 1, default: 'Ada' },
    size: {
      type: 'string',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
      default: 's',
    },
    color: { type: 'string', enum: ['red', 'blue'] },
    count: { type: 'integer', minimum: 1, default: 2 },
    ok: { type: 'boolean', default: true },
  },
  required: ['name'],
};

@McpServer({ name: 'revisions', version: '1.0.0', title: 'Revisions', description: 'Shaped per revision', websiteUrl: 'https://example.test', icons: [ICON] })
class Revisions {
  @Tool({
    title: 'Boxed',
    icons: [ICON],
    annotations: { readOnlyHint: true },
    _meta: { 'example.test/k': 1 },
    input: null,
    output: Type.Object({ n: Type.Number() }),
  })
  boxed() {
    return { n: 1 };
  }

  @Tool({ input: null })
  blocks() {
    return [
      SHARED_BLOCK,
      resourceLink({ uri: 'mem://a', name: 'a', title: 'The A', icons: [ICON] }),
      audio(new Uint8Array([1, 2, 3]), 'audio/wav'),
      embeddedResource('mem://e', 'E', 'text/plain'),
    ];
  }

  @Tool({ input: null })
  steps(_args: unknown, ctx: ToolContext) {
    ctx.progress(1, 2, 'half way');
    return 'done';
  }

  @Tool({ input: null })
  async ask(_args: unknown, ctx: ToolContext) {
    const answer = await ctx.elicit({ message: 'ok?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }, { optional: true });
    return answer === undefined ? 'no elicitation' : answer.action;
  }

  @Tool({ input: null })
  async form(_args: unknown, ctx: ToolContext) {
    const answer = await ctx.elicit({ message: 'form', requestedSchema: FORM });
    return answer.action === 'accept' ? JSON.stringify(answer.content) : answer.action;
  }

  @Tool({ input: null })
  async picks(_args: unknown, ctx: ToolContext) {
    const tags = { type: 'array', items: { type: 'string', enum: ['a', 'b'] } };
    const answer = await ctx.elicit({ message: 'picks', requestedSchema: { type: 'object', properties: { tags } } }, { optional: true });
    return answer === undefined ? 'not asked' : answer.action;
  }

  @Tool({ input: null })
  async sample(_args: unknown, ctx: ToolContext) {
    const answer = await ctx.sample(
      { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5, includeContext: 'thisServer' },
      { optional: true },
    );
    return answer === undefined ? 'no sampling' : String(answer.model);
  }

  @Resource({
    uri: 'mem://a',
    title: 'The A',
    icons: [ICON],
    annotations: { priority: 1, lastModified: '2025-01-01T00:00:00Z' },
    _meta: { 'example.test/k': 1 },
  })
  a() {
    return 'A';
  }

  @Prompt({ title: 'Greeting', input: Type.Object({ who: Type.String({ title: 'Who' }) }) })
  greet() {
    return [resourceLink({ uri: 'mem://a', name: 'a', description: 'the letter' }), SHARED_BLOCK];
  }

  @Complete({ prompt: 'greet', argument: 'who' })
  who(value: string) {
    return ['world'].filter((w) => w.startsWith(value));
  }
}

/** An elicitation/create the session sent. */
type SentAsk = { id: string; params: { requestedSchema: { properties: Record<string, unknown> } } };

async function opened(version: string, capabilities: object = {}) {
  const s = legacySession([Revisions]);
  const init = await s.init(version, capabilities);
  const tools = (await s.request('tools/list')).result.tools as Array<Record<string, any>>;
  return {
    ...s,
    init,
    tool: (name: string) => tools.find((t) => t.name === name)!,
    call: async (name: string) => (await s.request('tools/call', { name, arguments: {} })).result,
  };
}

describe('legacy results per negotiated revision', () => {
  test('2025-11-25 keeps every legacy field', async () => {
    const s = await opened('2025-11-25');
    expect(s.init.result.serverInfo).toEqual({
      name: 'revisions',
      version: '1.0.0',
      title: 'Revisions',
      description: 'Shaped per revision',
      websiteUrl: 'https://example.test',
      icons: [ICON],
    });
    expect(s.init.result.capabilities).toMatchObject({ completions: {}, tools: { listChanged: true } });
    expect(s.tool('boxed')).toMatchObject({
      title: 'Boxed',
      icons: [ICON],
      annotations: { readOnlyHint: true },
      _meta: { 'example.test/k': 1 },
      outputSchema: { type: 'object' },
    });
    expect((await s.call('boxed')).structuredContent).toEqual({ n: 1 });
    expect((await s.call('blocks')).content.map((b: { type: string }) => b.type)).toEqual(['text', 'resource_link', 'audio', 'resource']);
  });

  test('2025-06-18: no icons, no server description or websiteUrl; elicitation is form only', async () => {
    const s = await opened('2025-06-18', { elicitation: { url: {} } });
    expect(s.init.result.serverInfo).toEqual({ name: 'revisions', version: '1.0.0', title: 'Revisions' });
    expect(s.tool('boxed')).not.toHaveProperty('icons');
    expect(s.tool('boxed')).toMatchObject({ title: 'Boxed', outputSchema: { type: 'object' }, _meta: { 'example.test/k': 1 } });
    const link = (await s.call('blocks')).content[1];
    expect(link).toEqual({ type: 'resource_link', uri: 'mem://a', name: 'a', title: 'The A' });
    expect((await s.request('resources/list')).result.resources[0]).not.toHaveProperty('icons');
    // A 2025-06-18 elicitation has no mode: declaring `url` there still offers a form.
    const asked = s.nextSent();
    const called = s.call('ask');
    const ask = (await asked) as { id: string };
    expect(ask).toEqual({
      jsonrpc: '2.0',
      id: expect.any(String),
      method: 'elicitation/create',
      params: { message: 'ok?', requestedSchema: expect.any(Object) },
    });
    s.legacy.handleResponse({ id: ask.id, result: { action: 'decline' } });
    expect((await called).content[0].text).toBe('decline');
  });

  test("2025-06-18: a form is sent in that revision's field shapes (titled options as enumNames, no defaults but a boolean's); a multi-select cannot be asked", async () => {
    const s = await opened('2025-06-18', { elicitation: {} });
    const asked = s.nextSent();
    const called = s.call('form');
    const ask = (await asked) as unknown as SentAsk;
    expect(ask.params.requestedSchema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name', minLength: 1 },
        size: { type: 'string', enum: ['s', 'l'], enumNames: ['Small', 'Large'] },
        color: { type: 'string', enum: ['red', 'blue'] },
        count: { type: 'integer', minimum: 1 },
        ok: { type: 'boolean', default: true },
      },
      required: ['name'],
    });
    // The answer is checked against the form as the handler wrote it.
    s.legacy.handleResponse({ id: ask.id, result: { action: 'accept', content: { name: 'Bo', size: 'l', count: 3 } } });
    expect((await called).content[0].text).toBe(JSON.stringify({ name: 'Bo', size: 'l', count: 3 }));
    expect((await s.call('picks')).content[0].text).toBe('not asked');
  });

  test('2025-11-25: the same form goes as written (defaults, titled options, multi-select)', async () => {
    const s = await opened('2025-11-25', { elicitation: {} });
    const asked = s.nextSent();
    const called = s.call('form');
    const ask = (await asked) as unknown as SentAsk;
    expect(ask.params.requestedSchema.properties.size).toEqual({
      type: 'string',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
      default: 's',
    });
    expect(ask.params.requestedSchema.properties.name).toMatchObject({ default: 'Ada' });
    s.legacy.handleResponse({ id: ask.id, result: { action: 'decline' } });
    expect((await called).content[0].text).toBe('decline');
    const picked = s.nextSent();
    const picks = s.call('picks');
    const second = (await picked) as unknown as SentAsk;
    expect(second.params.requestedSchema.properties.tags).toMatchObject({ type: 'array' });
    s.legacy.handleResponse({ id: second.id, result: { action: 'cancel' } });
    expect((await picks).content[0].text).toBe('cancel');
  });

  test('2025-03-26: no structured output, titles, _meta, resource links or lastModified; no elicitation', async () => {
    const s = await opened('2025-03-26', { elicitation: {}, sampling: {} });
    expect(s.init.result.serverInfo).toEqual({ name: 'revisions', version: '1.0.0' });
    expect(s.init.result.capabilities).toHaveProperty('completions');
    expect(s.tool('boxed')).toEqual({ name: 'boxed', inputSchema: expect.any(Object), annotations: { readOnlyHint: true } });
    expect(await s.call('boxed')).toEqual({ content: [{ type: 'text', text: '{"n":1}' }], isError: false });
    expect((await s.call('blocks')).content).toEqual([
      { type: 'text', text: 'shared', annotations: { audience: ['user'] } },
      { type: 'text', text: 'Resource "The A": mem://a' },
      { type: 'audio', data: 'AQID', mimeType: 'audio/wav' },
      { type: 'resource', resource: { uri: 'mem://e', text: 'E', mimeType: 'text/plain' } },
    ]);
    expect((await s.request('resources/list')).result.resources).toEqual([{ uri: 'mem://a', name: 'a', annotations: { priority: 1 } }]);
    const prompt = (await s.request('prompts/list')).result.prompts[0];
    expect(prompt).toEqual({ name: 'greet', arguments: [{ name: 'who', required: true }] });
    expect((await s.request('prompts/get', { name: 'greet', arguments: { who: 'x' } })).result.messages.map((m: { content: unknown }) => m.content)).toEqual([
      { type: 'text', text: 'Resource "a": mem://a\nthe letter' },
      { type: 'text', text: 'shared', annotations: { audience: ['user'] } },
    ]);
    // Elicitation is not part of 2025-03-26, whatever the client declared; sampling took includeContext.
    expect((await s.call('ask')).content[0].text).toBe('no elicitation');
    const asked = s.nextSent();
    const called = s.call('sample');
    const ask = (await asked) as { id: string };
    expect(ask).toMatchObject({ method: 'sampling/createMessage', params: { includeContext: 'thisServer' } });
    s.legacy.handleResponse({ id: ask.id, result: { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'test-model' } });
    expect((await called).content[0].text).toBe('test-model');
  });

  test('2024-11-05: also no audio, tool annotations, progress message or completions capability', async () => {
    const s = await opened('2024-11-05');
    expect(s.init.result.protocolVersion).toBe('2024-11-05');
    expect(s.init.result.capabilities).not.toHaveProperty('completions');
    expect(s.init.result.capabilities).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true },
      prompts: { listChanged: true },
      logging: {},
    });
    expect(s.tool('boxed')).toEqual({ name: 'boxed', inputSchema: expect.any(Object) });
    expect((await s.call('blocks')).content[2]).toEqual({ type: 'text', text: '[audio (audio/wav) left out: MCP 2024-11-05 has no audio content]' });
    await s.request('tools/call', { name: 'steps', arguments: {}, _meta: { progressToken: 'p' } });
    expect(s.notified).toEqual([{ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1, total: 2 } }]);
    // completion/complete is in 2024-11-05 (without a capability) and still served.
    expect(
      (await s.request('completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'w' } })).result.completion.values,
    ).toEqual(['world']);
  });

  test('shaping copies what a handler returned: a modern client still gets the shared block whole', async () => {
    await (await opened('2024-11-05')).call('blocks');
    const { call } = harness([Revisions]);
    const modern = await call(modernRequest(1, 'tools/call', { name: 'blocks', arguments: {} }));
    expect(modern!.result.content[0]).toEqual({ type: 'text', text: 'shared', _meta: { 'example.test/k': 1 }, annotations: STAMPED });
    expect(SHARED_BLOCK).toEqual({ type: 'text', text: 'shared', _meta: { 'example.test/k': 1 }, annotations: STAMPED });
  });
});
