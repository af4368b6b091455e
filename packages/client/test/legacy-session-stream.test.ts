// The standalone GET stream of a legacy (2025-11-25) HTTP session: reopened after a drop (the
// server's `retry`, Last-Event-ID), `reconnected` and dropped cached lists, and where it stops
// for good (405: no stream; 404: the session is gone, and the client opens a new one).
import type { IncomingMessage } from 'node:http';
import { connect, HttpTransport, SessionExpiredError, type ConnectOptions, type McpClient } from '@decorum/client';
import { until } from '@decorum-internal/test-support';
import { LiveServer } from '@decorum-internal/test-support/fixtures';
import { reconnectDelay, RETRY_FLOOR_MS } from '../src/transports/session-stream.js';
import { freePort, startAuthorizationServer } from './support/authorization-server.js';
import { rawEndpoint } from './support/raw-endpoint.js';
import { serveHttp, type HttpServer } from './support/servers.js';

const toolNames = async (client: McpClient) => (await client.listTools()).tools.map((tool) => tool.name);
const streamOf = (client: McpClient) => client.transport as HttpTransport;

/** A legacy-only Decorum endpoint, noting each request it gets (GETs apart, for their sockets and headers). */
async function legacyEndpoint(options: { port?: number; auth?: Parameters<typeof serveHttp>[0]['auth'] } = {}) {
  const server = await serveHttp({ servers: [LiveServer], eras: 'legacy', ...(options.auth && { auth: options.auth }) }, options.port);
  const gets: IncomingMessage[] = [];
  const postSessions: string[] = [];
  server.app.server.on('request', (req: IncomingMessage) => {
    if (req.method === 'GET') gets.push(req);
    else if (req.method === 'POST') postSessions.push((req.headers['mcp-session-id'] as string | undefined) ?? '');
  });
  return { server, gets, posts: () => postSessions.length, postSessions };
}

describe("a legacy HTTP session's GET stream", () => {
  let endpoint: Awaited<ReturnType<typeof legacyEndpoint>>;
  let server: HttpServer;
  beforeEach(async () => {
    endpoint = await legacyEndpoint();
    server = endpoint.server;
  });
  afterEach(() => server.close());

  /** Waits for the client's GET stream, and gives the GETs of its session as they come. */
  async function streamsOf(client: McpClient) {
    const first = await until('the GET stream open', () => streamOf(client).sessionStreamState === 'open' && endpoint.gets[0]);
    return () => endpoint.gets.filter((get) => get.headers['mcp-session-id'] === first.headers['mcp-session-id']);
  }

  /** A legacy client watching tools/list changes: its subscription (acknowledged) and the subscription's events. */
  async function watching(options: ConnectOptions = { era: 'legacy' }) {
    const client = await connect({ url: server.url }, options);
    const subscription = client.subscribe({ toolsListChanged: true });
    await subscription.acknowledged;
    return { client, subscription, events: subscription[Symbol.asyncIterator]() };
  }

  /**
   * Another session switches `deploy` off, a tools/list change every session hears; the returned
   * function (for `finally`) switches it back and ends that session.
   */
  async function deployOffElsewhere(): Promise<() => Promise<void>> {
    const other = await connect({ url: server.url }, { era: 'legacy' });
    await other.callTool('set_deploy', { enabled: false });
    return async () => {
      await other.callTool('set_deploy', { enabled: true });
      await other.close();
    };
  }

  /** The session ids the server saw on each POST, in order ('' for none). */
  function postedSessions(): string[] {
    return endpoint.postSessions;
  }

  test('dropped by the server, it is reopened with Last-Event-ID; the cached lists go (a change may have passed unseen), and later changes are heard', async () => {
    const client = await connect({ url: server.url }, { cache: { fallbackTtlMs: 3_600_000 } });
    let restore: (() => Promise<void>) | undefined;
    try {
      expect(client.era).toBe('legacy');
      const heard: string[] = [];
      client.onChange((notification) => heard.push(notification.method));
      expect(await toolNames(client)).toContain('deploy');
      const gets = await streamsOf(client);

      gets()[0].socket.destroy();
      // 'open' is set as the new stream's answer arrives, before anything is read from it.
      await until('the GET stream reopened', () => gets().length === 2 && streamOf(client).sessionStreamState === 'open');
      // The priming event's id: the server replays what came after it.
      expect(gets()[1].headers['last-event-id']).toEqual(expect.stringMatching(/^\d+_\d+$/));
      const before = endpoint.posts();
      expect(await toolNames(client)).toContain('deploy');
      expect(endpoint.posts()).toBe(before + 1); // refetched, not served from the cache

      // Another session changes the tools: the notice can only come on this session's (reopened) GET stream.
      restore = await deployOffElsewhere();
      await until('the list change heard', () => heard.includes('notifications/tools/list_changed'));
      expect(await toolNames(client)).not.toContain('deploy');
      expect(gets()).toHaveLength(2);
    } finally {
      await restore?.();
      await client.close();
    }
  });

  test('a subscription yields `reconnected` when the stream is back, then the changes it carries', async () => {
    const { client, subscription, events } = await watching();
    let restore: (() => Promise<void>) | undefined;
    try {
      const gets = await streamsOf(client);
      gets()[0].socket.destroy();
      expect((await events.next()).value).toEqual({ type: 'reconnected' });
      restore = await deployOffElsewhere();
      expect((await events.next()).value).toEqual({ type: 'tools/list_changed' });
      await subscription.close();
    } finally {
      await restore?.();
      await client.close();
    }
  });

  test('the server ended the session (404 on reopening the GET stream): the client opens a new one; the subscription says `reconnected`, then hears the new session', async () => {
    const { client, subscription, events } = await watching();
    let restore: (() => Promise<void>) | undefined;
    try {
      const [stream] = (await streamsOf(client))();
      const old = stream.headers['mcp-session-id'] as string;
      const deleted = await fetch(server.url, { method: 'DELETE', headers: { 'mcp-session-id': old } });
      expect(deleted.status).toBe(200);

      expect((await events.next()).value).toEqual({ type: 'reconnected' });
      const renewed = await until('a GET stream of a new session', () =>
        endpoint.gets.find((get) => get.headers['mcp-session-id'] !== undefined && get.headers['mcp-session-id'] !== old),
      );
      expect(client.closedReason).toBeUndefined();
      // initialize went out without the dead id, and every POST after it carries the new one.
      const posts = postedSessions();
      const fresh = posts.lastIndexOf('');
      expect(fresh).toBeGreaterThan(posts.indexOf(old));
      expect(posts.slice(fresh + 1).every((id) => id === renewed.headers['mcp-session-id'])).toBe(true);

      restore = await deployOffElsewhere();
      expect((await events.next()).value).toEqual({ type: 'tools/list_changed' });
      expect(await toolNames(client)).not.toContain('deploy');
      await subscription.close();
    } finally {
      await restore?.();
      await client.close();
    }
  });

  test('a resource subscription is made again in the new session: updates of the resource still arrive', async () => {
    const client = await connect({ url: server.url }, { era: 'legacy' });
    try {
      const subscription = client.subscribe({ resourceSubscriptions: ['notes://index'] });
      expect(await subscription.acknowledged).toEqual({ resourceSubscriptions: ['notes://index'] });
      const events = subscription[Symbol.asyncIterator]();
      const [stream] = (await streamsOf(client))();
      await fetch(server.url, { method: 'DELETE', headers: { 'mcp-session-id': stream.headers['mcp-session-id'] as string } });
      expect((await events.next()).value).toEqual({ type: 'reconnected' });
      // The new session's GET stream carries the update only if resources/subscribe went out again in it.
      await until('a GET stream of a new session', () => endpoint.gets.some((get) => get.headers['mcp-session-id'] !== stream.headers['mcp-session-id']));
      await until('its stream open', () => streamOf(client).sessionStreamState === 'open');
      await client.callTool('touch', { uri: 'notes://index' });
      expect((await events.next()).value).toEqual({ type: 'resources/updated', uri: 'notes://index' });
      await subscription.close();
    } finally {
      await client.close();
    }
  });

  test('a request that meets the 404 of an ended session is sent once more, in a new session, and answered', async () => {
    const client = await connect({ url: server.url }, { era: 'legacy' });
    try {
      const [stream] = (await streamsOf(client))();
      const old = stream.headers['mcp-session-id'] as string;
      await fetch(server.url, { method: 'DELETE', headers: { 'mcp-session-id': old } });
      const before = postedSessions().length;
      // Whichever notices the 404 first, the GET stream or the call, the call is answered in a new session.
      const result = await client.callTool('deploy');
      expect(result.isError).not.toBe(true);
      expect(client.closedReason).toBeUndefined();
      const after = postedSessions().slice(before);
      expect(after.filter((id) => id === old).length).toBeLessThanOrEqual(1); // the call that met the 404, if it went first
      expect(after).toContain(''); // initialize, without the dead id
      expect(after.at(-1)).not.toBe(old);
      expect(after.at(-1)).not.toBe('');
    } finally {
      await client.close();
    }
  });

  test('renewSession: false — the server ended the session (404 on reopening): the client closes with SessionExpiredError and stops', async () => {
    const { client, events } = await watching({ era: 'legacy', renewSession: false });
    const [stream] = (await streamsOf(client))();
    // DELETE with the client's session id: the session ends and its GET stream is closed.
    const deleted = await fetch(server.url, { method: 'DELETE', headers: { 'mcp-session-id': stream.headers['mcp-session-id'] as string } });
    expect(deleted.status).toBe(200);

    expect(await until('the client closed', () => client.closedReason)).toBeInstanceOf(SessionExpiredError);
    expect(streamOf(client).sessionStreamState).toBe('session-expired');
    await expect(events.next()).rejects.toBeInstanceOf(SessionExpiredError);
    await expect(client.listTools()).rejects.toBeInstanceOf(SessionExpiredError);
    await client.close();
  });

  test('renewSession: false — a request of a session the server ended fails with SessionExpiredError (the 404 says so, whatever its body)', async () => {
    const client = await connect({ url: server.url }, { era: 'legacy', renewSession: false });
    const [stream] = (await streamsOf(client))();
    await fetch(server.url, { method: 'DELETE', headers: { 'mcp-session-id': stream.headers['mcp-session-id'] as string } });
    await expect(client.callTool('deploy')).rejects.toBeInstanceOf(SessionExpiredError);
    expect(client.closedReason).toBeInstanceOf(SessionExpiredError);
    await client.close();
  });
});

describe('where the GET stream stops, and how long it waits', () => {
  test('a closed transport opens no GET stream, even when a session is settled after close()', async () => {
    const server = await serveHttp({ servers: [LiveServer], eras: 'legacy' });
    const transport = new HttpTransport({ url: server.url });
    try {
      await transport.start({ onNotification() {}, onRequest: async () => ({}), onResumed() {}, onClose() {}, onSessionEnded() {} });
      const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } };
      const answer = await transport.request({ jsonrpc: '2.0', id: 1, method: 'initialize', params }, {});
      expect(answer).toHaveProperty('result');
      await transport.close();
      transport.setEra({ era: 'legacy', protocolVersion: '2025-11-25' });
      expect(transport.sessionStreamState).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  test('405 on reopening: the server offers no GET stream, and the client stops asking', async () => {
    const gets: (string | undefined)[] = [];
    const { url, server } = await rawEndpoint((body, headers, res, method) => {
      if (method === 'GET') {
        gets.push(headers['last-event-id'] as string | undefined);
        if (gets.length > 1) return void res.writeHead(405, { allow: 'POST, DELETE' }).end();
        // The first stream: a priming event, a short retry, then the server closes it.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return void res.end('id: s_1\nretry: 10\ndata: \n\n');
      }
      if (body?.method === 'initialize') {
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'sid' });
        return void res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: body.id,
            result: { protocolVersion: '2025-11-25', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'no-get', version: '1' } },
          }),
        );
      }
      res.writeHead(202).end(); // notifications/initialized, DELETE
    });
    const client = await connect({ url }, { era: 'legacy' });
    try {
      // The state is set once the loop has ended: no attempt can follow.
      await until('the stream given up', () => streamOf(client).sessionStreamState === 'unoffered');
      expect(gets).toEqual([undefined, 's_1']);
      expect(client.closedReason).toBeUndefined();
    } finally {
      await client.close();
      server.close();
    }
  });

  test("the delay: the server's retry first, then doubling up to 30 s, a quarter more at most at random, never spinning on retry: 0", () => {
    expect(reconnectDelay(0, 1000, () => 0)).toBe(1000);
    expect(reconnectDelay(0, 1000, () => 1)).toBe(1250);
    expect(reconnectDelay(0, undefined, () => 0)).toBe(1000);
    expect(reconnectDelay(1, 1000, () => 0)).toBe(2000);
    expect(reconnectDelay(3, 1000, () => 0)).toBe(8000);
    expect(reconnectDelay(50, 1000, () => 0)).toBe(30_000);
    expect(reconnectDelay(50, 60_000, () => 0)).toBe(60_000);
    expect(reconnectDelay(0, 0, () => 0)).toBe(RETRY_FLOOR_MS);
    expect(reconnectDelay(1, 0, () => 0)).toBe(2 * RETRY_FLOOR_MS);
  });
});

describe('on a protected legacy endpoint', () => {
  test("the GET stream carries the token provider's bearer token, so list changes still arrive", async () => {
    const as = await startAuthorizationServer();
    const port = await freePort();
    const resource = `http://127.0.0.1:${port}/mcp`;
    const endpoint = await legacyEndpoint({ port, auth: { resource, authorizationServers: [as.issuer], jwt: { jwks: as.jwks as never } } });
    const token = await as.accessToken(resource, 'client-1');
    const client = await connect({ url: resource, token: () => token }, { era: 'legacy' });
    const other = await connect({ url: resource, token: () => token }, { era: 'legacy' });
    try {
      const changed = new Promise<string>((resolve) => client.onChange((notification) => resolve(notification.method)));
      await until('the GET stream open', () => streamOf(client).sessionStreamState === 'open');
      expect(endpoint.gets[0].headers.authorization).toBe(`Bearer ${token}`);
      await other.callTool('set_deploy', { enabled: false });
      expect(await changed).toBe('notifications/tools/list_changed');
    } finally {
      await other.close();
      await client.close();
      await endpoint.server.close();
      await as.close();
    }
  });
});
