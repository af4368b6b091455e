import 'reflect-metadata';
import { Type } from 'typebox';
import { defineExtension, McpServer, Tool, type ToolContext } from '@decorum/core';
import { request } from '@decorum-internal/test-support';
import { harness } from '../support/engine-harness.js';
import { legacySession } from '../support/legacy-session.js';

@McpServer({ name: 'ext-methods', version: '1.0.0' })
class Echoes {
  @Tool({ input: null })
  whoAmI(_args: unknown, ctx: ToolContext) {
    return JSON.stringify(ctx.client.extensions);
  }
}

const ID = 'com.example/echo';
const seen: Array<{ input: unknown; clientExtensions: unknown }> = [];
const echo = defineExtension({
  id: ID,
  settings: { maxLength: 10 },
  methods: {
    'com.example/echo': {
      params: Type.Object({ text: Type.String({ maxLength: 10 }) }),
      run(req) {
        seen.push({ input: req.input, clientExtensions: req.clientExtensions });
        return { echoed: (req.input as { text: string }).text };
      },
    },
    'com.example/gated': {
      params: Type.Object({ id: Type.String() }),
      requiresClientExtension: true,
      eras: 'modern',
      run: (req) => ({ id: (req.input as { id: string }).id }),
    },
    'com.example/legacy-only': { eras: 'legacy', run: () => ({ old: true }) },
  },
});
const declared = { extensions: { [ID]: {} } };

describe('extension methods, 2026-07-28', () => {
  const { call } = harness([Echoes], { extensions: [echo] });

  test('a method runs with its params validated, seeing the client extensions', async () => {
    seen.length = 0;
    const response = await call(request(1, 'com.example/echo', { text: 'hello' }, { capabilities: declared }));
    expect(response?.result).toMatchObject({ resultType: 'complete', echoed: 'hello' });
    expect(seen).toEqual([{ input: { text: 'hello' }, clientExtensions: { [ID]: {} } }]);
  });

  test('invalid params are -32602 naming each issue, and the server keeps serving', async () => {
    const response = await call(request(2, 'com.example/echo', { text: 'far too long a text', extra: 1 }));
    expect(response?.error.code).toBe(-32602);
    expect(response?.error.message).toMatch(/^Invalid params for com\.example\/echo:\n/);
    expect(response?.error.message).toContain('/text');
    expect((await call(request(3, 'com.example/echo', { text: 'ok' })))?.result.echoed).toBe('ok');
  });

  test('requiresClientExtension: -32021 naming the extension, before the params are read', async () => {
    const response = await call(request(4, 'com.example/gated', { id: 42 }));
    expect(response?.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [ID]: {} } } } });
    expect(response?.error.message).toContain('com.example/gated needs the client extension "com.example/echo"');
    // Declared: now the params are read (and refused).
    expect((await call(request(5, 'com.example/gated', { id: 42 }, { capabilities: declared })))?.error.code).toBe(-32602);
    expect((await call(request(6, 'com.example/gated', { id: 'x' }, { capabilities: declared })))?.result.id).toBe('x');
  });

  test('a legacy-only method is -32601 here', async () => {
    const response = await call(request(7, 'com.example/legacy-only'));
    expect(response?.error.code).toBe(-32601);
    expect(response?.error.message).toContain('not served in protocol 2026-07-28');
  });

  test('server/discover advertises the settings; ctx.client.extensions is the request’s own', async () => {
    expect((await call(request(8, 'server/discover')))?.result.capabilities.extensions).toEqual({ [ID]: { maxLength: 10 } });
    const mine = await call(request(9, 'tools/call', { name: 'whoAmI' }, { capabilities: declared }));
    expect(mine?.result.content[0].text).toBe(JSON.stringify({ [ID]: {} }));
    const none = await call(request(10, 'tools/call', { name: 'whoAmI' }));
    expect(none?.result.content[0].text).toBe('{}');
  });

  test('without extensions, discover carries no extensions capability', async () => {
    const plain = harness([Echoes]);
    expect((await plain.call(request(1, 'server/discover')))?.result.capabilities.extensions).toBeUndefined();
    expect((await plain.call(request(2, 'com.example/echo', { text: 'x' })))?.error.code).toBe(-32601);
  });
});

describe('extension methods, legacy sessions', () => {
  test('initialize advertises the legacy settings and legacyCapabilities; methods of both and legacy eras are served', async () => {
    const withLegacy = defineExtension({
      id: 'com.example/legacy',
      eras: 'legacy',
      settings: { v: 1 },
      legacyCapabilities: (version) => (version === '2025-11-25' ? { experimentalThing: {} } : undefined),
    });
    const modernOnly = defineExtension({ id: 'com.example/modern', eras: 'modern' });
    const s = legacySession([Echoes], { extensions: [echo, withLegacy, modernOnly] });
    const init = await s.init('2025-11-25', declared);
    expect(init.result.capabilities.extensions).toEqual({ [ID]: { maxLength: 10 }, 'com.example/legacy': { v: 1 } });
    expect(init.result.capabilities.experimentalThing).toEqual({});
    seen.length = 0;
    expect((await s.request('com.example/echo', { text: 'hi' })).result).toEqual({ echoed: 'hi' });
    expect(seen[0]?.clientExtensions).toEqual({ [ID]: {} });
    expect((await s.request('com.example/legacy-only')).result).toEqual({ old: true });
    // Modern-only: -32601; the gate (-32021) never applies to legacy.
    expect((await s.request('com.example/gated', { id: 'x' })).error.code).toBe(-32601);
    expect((await s.request('com.example/echo', { text: 12 })).error.code).toBe(-32602);
    const who = await s.request('tools/call', { name: 'whoAmI' });
    expect(who.result.content[0].text).toBe(JSON.stringify({ [ID]: {} }));
  });

  test('an older revision gets no legacyCapabilities of 2025-11-25', async () => {
    const withLegacy = defineExtension({ id: 'com.example/legacy', legacyCapabilities: (v) => (v === '2025-11-25' ? { thing: {} } : undefined) });
    const s = legacySession([Echoes], { extensions: [withLegacy] });
    const init = await s.init('2025-06-18');
    expect(init.result.capabilities.thing).toBeUndefined();
    expect(init.result.capabilities.extensions).toEqual({ 'com.example/legacy': {} });
  });
});
