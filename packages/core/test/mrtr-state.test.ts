import { randomBytes } from 'node:crypto';
import { createServer, DecorumStartupError, type AuthInfo } from '@decorum/core';
import { encodeMessage, expectSeveralInstances } from '@decorum/core/transport';
import { pino } from 'pino';
import { harness, quietLogger } from './support/engine-harness.js';
import { request, withCharacterReplaced } from '@decorum-internal/test-support';
import { digest } from '../src/asks/mrtr/binding.js';
import { MrtrServer, runs } from './support/mrtr-fixture.js';

const ELICIT = { capabilities: { elicitation: {} } };
const key = () => randomBytes(32).toString('base64');
const confirm = (path: string, extra: Record<string, unknown> = {}) => ({ name: 'delete_file', arguments: { path }, ...extra });
const yes = { confirm: { action: 'accept', content: { ok: true } } };

/** Changes one character of the token's sealed part (after its JWE header and empty key, `header..`). */
const flip = (state: string, at: number): string => withCharacterReplaced(state, state.indexOf('..') + 2 + at);

describe('MRTR requestState is sealed and bound', () => {
  const { call } = harness([MrtrServer], { mrtr: { keys: [key()] } });

  async function firstRound(path = '/x') {
    const first = await call(request(1, 'tools/call', confirm(path), ELICIT));
    return first?.result.requestState as string;
  }

  test('one flipped character anywhere → -32602, and the tool does not run', async () => {
    const state = await firstRound();
    runs.deleted.length = 0;
    for (const at of [0, 5, 20, state.length - state.indexOf('..') - 8, state.length - state.indexOf('..') - 4]) {
      const tampered = flip(state, at);
      const response = await call(request(2, 'tools/call', confirm('/x', { requestState: tampered, inputResponses: yes }), ELICIT));
      expect(response?.error).toEqual({ code: -32602, message: 'requestState is invalid (tampered, expired, or sealed by another server key)' });
    }
    for (const garbage of ['', 'v2.abc', 'v1.', 'v1.!!!', state.split('.').slice(0, 4).join('.'), `${state}.x`, 42]) {
      const response = await call(request(3, 'tools/call', confirm('/x', { requestState: garbage, inputResponses: yes }), ELICIT));
      expect(response?.error.code).toBe(-32602);
    }
    expect(runs.deleted).toEqual([]);
  });

  test('state replayed on another tool or with other arguments → -32602 naming what differs', async () => {
    const state = await firstRound('/x');
    const otherArgs = await call(request(2, 'tools/call', confirm('/etc/passwd', { requestState: state, inputResponses: yes }), ELICIT));
    expect(otherArgs?.error).toMatchObject({ code: -32602, message: expect.stringContaining('different arguments') });
    const otherTool = await call(request(3, 'tools/call', { name: 'wizard', arguments: {}, requestState: state, inputResponses: yes }, ELICIT));
    expect(otherTool?.error).toMatchObject({ code: -32602, message: expect.stringContaining('a different tool, prompt or resource') });
    const otherMethod = await call(request(4, 'prompts/get', { name: 'tone', requestState: state }, ELICIT));
    expect(otherMethod?.error).toMatchObject({ code: -32602, message: expect.stringContaining('a different method') });
    // Key order of the arguments does not matter: the digest is over canonical JSON.
    expect(digest({ b: 1, a: { y: 2, x: [1, { d: 1, c: 2 }] } })).toBe(digest({ a: { x: [1, { c: 2, d: 1 }], y: 2 }, b: 1 }));
    expect(digest({ a: 1 })).not.toBe(digest({ a: '1' }));
  });

  test('state from another principal → -32602; the same principal succeeds', async () => {
    const server = createServer([MrtrServer], { logger: quietLogger, mrtr: { keys: [key()] } });
    const as = async (principal: string | undefined, message: unknown) => {
      const auth: AuthInfo | undefined = principal === undefined ? undefined : { principal, scopes: [], claims: {} };
      const response = await server.engine.handle(message, { notify: () => {}, auth });
      return JSON.parse(encodeMessage(response!)) as Record<string, any>;
    };
    const first = await as('alice', request(1, 'tools/call', confirm('/p'), ELICIT));
    const retry = request(2, 'tools/call', confirm('/p', { requestState: first.result.requestState, inputResponses: yes }), ELICIT);
    const bob = await as('bob', retry);
    expect(bob.error).toMatchObject({ code: -32602, message: expect.stringContaining('a different principal') });
    expect(bob.error.message).not.toContain('alice');
    expect((await as(undefined, retry)).error.code).toBe(-32602);
    expect((await as('alice', retry)).result.content[0].text).toBe('deleted /p');
  });

  test('expired state → -32602 (injected clock)', async () => {
    let now = 1_000_000;
    const { call: timed } = harness([MrtrServer], { mrtr: { keys: [key()], ttlMs: 60_000, now: () => now } });
    const first = await timed(request(1, 'tools/call', confirm('/t'), ELICIT));
    now += 59_000;
    const fresh = await timed(request(2, 'tools/call', confirm('/t', { requestState: first?.result.requestState, inputResponses: {} }), ELICIT));
    expect(fresh?.result.resultType).toBe('input_required');
    now += 61_000;
    const stale = await timed(request(3, 'tools/call', confirm('/t', { requestState: first?.result.requestState, inputResponses: yes }), ELICIT));
    expect(stale?.error).toMatchObject({ code: -32602, message: expect.stringContaining('expired') });
  });

  test('key rotation: a state sealed with the old key opens when the old key is second in the ring', async () => {
    const oldKey = key();
    const newKey = key();
    const before = harness([MrtrServer], { mrtr: { keys: [oldKey] } });
    const first = await before.call(request(1, 'tools/call', confirm('/r'), ELICIT));
    const retry = request(2, 'tools/call', confirm('/r', { requestState: first?.result.requestState, inputResponses: yes }), ELICIT);
    const rotated = harness([MrtrServer], { mrtr: { keys: [newKey, oldKey] } });
    expect((await rotated.call(retry))?.result.content[0].text).toBe('deleted /r');
    const dropped = harness([MrtrServer], { mrtr: { keys: [newKey] } });
    expect((await dropped.call(retry))?.error.code).toBe(-32602);
  });

  test('keys from DECORUM_STATE_KEYS (comma-separated); bad keys fail at start-up', async () => {
    const k1 = key();
    const k2 = key();
    process.env.DECORUM_STATE_KEYS = `${k1}, ${k2}`;
    try {
      const a = harness([MrtrServer]);
      const first = await a.call(request(1, 'tools/call', confirm('/env'), ELICIT));
      const viaOption = harness([MrtrServer], { mrtr: { keys: [key(), k1] } });
      expect(
        (await viaOption.call(request(2, 'tools/call', confirm('/env', { requestState: first?.result.requestState, inputResponses: yes }), ELICIT)))?.result
          .resultType,
      ).toBe('complete');
      process.env.DECORUM_STATE_KEYS = 'c2hvcnQ=';
      expect(() => createServer([MrtrServer], { logger: quietLogger })).toThrow(DecorumStartupError);
    } finally {
      delete process.env.DECORUM_STATE_KEYS;
    }
    expect(() => createServer([MrtrServer], { logger: quietLogger, mrtr: { keys: ['dG9vIHNob3J0'] } })).toThrow(/32 bytes/);
  });

  test('without a key: a per-process key works and, where several instances may serve (HTTP), one warning says they need one', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const a = harness([MrtrServer], { logger });
    const b = harness([MrtrServer], { logger });
    expectSeveralInstances(a.server);
    const first = await a.call(request(1, 'tools/call', confirm('/k'), ELICIT));
    await a.call(request(2, 'tools/call', confirm('/k2'), ELICIT));
    // Another server in the same process shares the per-process key.
    expect(
      (await b.call(request(3, 'tools/call', confirm('/k', { requestState: first?.result.requestState, inputResponses: yes }), ELICIT)))?.result.resultType,
    ).toBe('complete');
    const warnings = lines.filter((l) => l.includes('Multi-instance deployments need a shared key'));
    expect(warnings).toHaveLength(1);
  });

  test('the state is encrypted: answers and the journal are not readable in it', async () => {
    const first = await call(request(1, 'tools/call', { name: 'wizard', arguments: {} }, ELICIT));
    const second = await call(
      request(
        2,
        'tools/call',
        {
          name: 'wizard',
          arguments: {},
          requestState: first?.result.requestState,
          inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Zebulon', stars: 3, color: 'red' } } },
        },
        ELICIT,
      ),
    );
    const raw = String(second?.result.requestState)
      .split('.')
      .map((segment) => Buffer.from(segment, 'base64url').toString('latin1'))
      .join('\n');
    expect(raw).not.toContain('Zebulon');
    expect(raw).not.toContain('reservation');
  });
});
