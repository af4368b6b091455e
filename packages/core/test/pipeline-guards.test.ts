import 'reflect-metadata';
import {
  ForbiddenError,
  Guard,
  McpServer,
  Prompt,
  Resource,
  Tool,
  type AuthInfo,
  type DecorumServer,
  type GuardFunction,
  type ServerOptions,
} from '@decorum/core';
import { encodeMessage } from '@decorum/core/transport';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { harness } from './support/engine-harness.js';
import { request } from '@decorum-internal/test-support';

const isAdmin: GuardFunction = (call) => call.auth?.claims.role === 'admin';
const weekdaysOnly: GuardFunction = async () => true;
function brokenGuard(): boolean {
  throw new Error('db password is hunter2');
}
const politeRefusal: GuardFunction = () => {
  throw new ForbiddenError('Forbidden: reports are closed for maintenance');
};

@McpServer({ name: 'guarded', version: '1.0.0' })
class Guarded {
  @Tool({ input: null }) open() {
    return 'open';
  }
  @Guard(isAdmin) @Tool({ input: null }) admin_only() {
    return 'admin';
  }
  @Tool({ input: null, scopes: ['reports:read'] }) reports() {
    return 'reports';
  }
  @Guard(brokenGuard) @Tool({ input: null }) broken() {
    return 'never';
  }
  @Guard(politeRefusal) @Tool({ input: null }) closed() {
    return 'never';
  }
  @Guard(weekdaysOnly, isAdmin) @Prompt({ input: null }) admin_prompt() {
    return 'secret prompt';
  }
  @Guard(isAdmin) @Resource({ uri: 'mem://admin' }) admin_resource() {
    return 'admin data';
  }
  @Resource({ uri: 'mem://public' }) public_resource() {
    return 'public data';
  }
  @Guard(isAdmin) @Resource({ uriTemplate: 'mem://admin/{id}' }) admin_template() {
    return 'x';
  }
}

@Guard(isAdmin)
class AdminClass {
  @Tool({ input: null }) class_guarded() {
    return 'ok';
  }
}

const alice: AuthInfo = { principal: 'alice', scopes: [], claims: { role: 'user' } };
const root: AuthInfo = { principal: 'root', scopes: ['reports:read'], claims: { role: 'admin' } };

function as(server: DecorumServer, auth: AuthInfo | undefined) {
  return async (message: unknown) => {
    const response = await server.engine.handle(message, { notify: () => {}, auth });
    return JSON.parse(encodeMessage(response!)) as Record<string, any>;
  };
}

function serve(options: ServerOptions = {}) {
  return harness([Guarded, AdminClass], options).server;
}

describe('guards', () => {
  test('a guard that says no is -31403 naming the guard and the target', async () => {
    const answer = await as(serve(), alice)(request(1, 'tools/call', { name: 'admin_only' }));
    expect(answer.error).toEqual({ code: -31403, message: 'Forbidden: tools/call "admin_only" was refused by guard "isAdmin"', data: { guard: 'isAdmin' } });
    expect((await as(serve(), root)(request(2, 'tools/call', { name: 'admin_only' }))).result.content[0].text).toBe('admin');
  });

  test('class guards cover every member; guards apply to prompts and resources too', async () => {
    const server = serve();
    expect((await as(server, alice)(request(1, 'tools/call', { name: 'class_guarded' }))).error.code).toBe(-31403);
    expect((await as(server, alice)(request(2, 'prompts/get', { name: 'admin_prompt' }))).error.code).toBe(-31403);
    expect((await as(server, alice)(request(3, 'resources/read', { uri: 'mem://admin' }))).error.code).toBe(-31403);
    expect((await as(server, root)(request(4, 'prompts/get', { name: 'admin_prompt' }))).result.messages).toHaveLength(1);
  });

  test('a guard that throws is a clear -32603 naming it; its message and stack stay in the log', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'error' }, new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(chunk.toString()), done()) }));
    const server = serve({ logger });
    const answer = await as(server, alice)(request(1, 'tools/call', { name: 'broken' }));
    expect(answer.error).toEqual({ code: -32603, message: 'Guard "brokenGuard" failed, so the call was refused (the details are in the server log)' });
    expect(JSON.stringify(answer)).not.toContain('hunter2');
    expect(lines.join('')).toContain('hunter2');
    expect((await as(server, alice)(request(2, 'tools/call', { name: 'open' }))).result.content[0].text).toBe('open');
  });

  test('a guard may throw a typed error with its own message', async () => {
    const answer = await as(serve(), alice)(request(1, 'tools/call', { name: 'closed' }));
    expect(answer.error).toMatchObject({ code: -31403, message: 'Forbidden: reports are closed for maintenance' });
  });

  test('server-wide guards (option) run for every request, before the class and member ones', async () => {
    const seen: string[] = [];
    const audit: GuardFunction = (call) => (seen.push(call.method), call.auth !== undefined);
    const server = serve({ guards: [audit] });
    expect((await as(server, undefined)(request(1, 'tools/list'))).error).toMatchObject({
      code: -31403,
      message: 'Forbidden: tools/list was refused by guard "audit"',
    });
    expect((await as(server, alice)(request(2, 'tools/call', { name: 'admin_only' }))).error.data).toEqual({ guard: 'isAdmin' });
    expect(seen).toEqual(['tools/list', 'tools/call']);
  });

  test('scopes: is a guard when the caller is authenticated: -31403 with the scopes needed', async () => {
    const answer = await as(serve(), alice)(request(1, 'tools/call', { name: 'reports' }));
    expect(answer.error).toEqual({
      code: -31403,
      message: 'Forbidden: tools/call "reports" needs the scope reports:read; the token lacks reports:read',
      data: { requiredScopes: ['reports:read'], missingScopes: ['reports:read'] },
    });
    expect((await as(serve(), root)(request(2, 'tools/call', { name: 'reports' }))).result.content[0].text).toBe('reports');
    // Without authentication (stdio, HTTP without auth) scopes are not checked, as before.
    expect((await as(serve(), undefined)(request(3, 'tools/call', { name: 'reports' }))).result.content[0].text).toBe('reports');
  });
});

describe("lists: 'per-caller'", () => {
  const names = (answer: Record<string, any>, key: string) => answer.result[key].map((i: { name: string }) => i.name);

  test('a caller sees only what its guards and scopes allow, with cacheScope private', async () => {
    const server = serve({ lists: 'per-caller' });
    const user = await as(server, alice)(request(1, 'tools/list'));
    // `closed` and `broken` refuse everyone (one throws a ForbiddenError, one fails): hidden too.
    expect(names(user, 'tools')).toEqual(['open']);
    expect(user.result.cacheScope).toBe('private');
    const admin = await as(server, root)(request(2, 'tools/list'));
    expect(names(admin, 'tools')).toEqual(['open', 'admin_only', 'reports', 'class_guarded']);
    expect(admin.result.cacheScope).toBe('private');
    expect(names(await as(server, alice)(request(3, 'prompts/list')), 'prompts')).toEqual([]);
    expect(names(await as(server, root)(request(4, 'prompts/list')), 'prompts')).toEqual(['admin_prompt']);
    expect(names(await as(server, alice)(request(5, 'resources/list')), 'resources')).toEqual(['public_resource']);
    expect(names(await as(server, alice)(request(6, 'resources/templates/list')), 'resourceTemplates')).toEqual([]);
    expect(names(await as(server, root)(request(7, 'resources/templates/list')), 'resourceTemplates')).toEqual(['admin_template']);
  });

  test('pages and cursors work per caller; a cursor from another caller’s list is refused', async () => {
    const server = serve({ lists: 'per-caller', pageSize: 2 });
    const first = await as(server, root)(request(1, 'tools/list'));
    expect(names(first, 'tools')).toEqual(['open', 'admin_only']);
    const second = await as(server, root)(request(2, 'tools/list', { cursor: first.result.nextCursor }));
    expect(names(second, 'tools')).toEqual(['reports', 'class_guarded']);
    expect(second.result.nextCursor).toBeUndefined();
    const foreign = await as(server, alice)(request(3, 'tools/list', { cursor: first.result.nextCursor }));
    expect(foreign.error.code).toBe(-32602);
  });

  test('the default stays public: everything listed, checked per call', async () => {
    const server = serve();
    const user = await as(server, alice)(request(1, 'tools/list'));
    expect(names(user, 'tools')).toHaveLength(6);
    expect(user.result.cacheScope).toBe('public');
  });

  test('an unknown lists value is a start-up error', () => {
    expect(() => serve({ lists: 'mine' as never })).toThrow("lists must be 'public' or 'per-caller'");
  });
});
