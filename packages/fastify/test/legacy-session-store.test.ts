import { createServer, McpServer, Tool } from '@decorum/core';
import type { ClientRequestOutlet } from '@decorum/core/transport';
import { legacySessionsOptions, SessionStore } from '../src/legacy/session-store.js';

@McpServer({ name: 'store-fixture', version: '1.0.0' })
class StoreFixture {
  @Tool({ input: null })
  ping(): string {
    return 'pong';
  }
}

describe('the legacy session store', () => {
  const server = createServer([StoreFixture]);
  const open = (outlet: ClientRequestOutlet) => server.openLegacySession(outlet);
  // The store's clock, moved by the tests: expiry is decided without waiting.
  let now = 0;
  let store: SessionStore;
  beforeEach(() => {
    now = 0;
    store = new SessionStore(legacySessionsOptions({ maxSessions: 2, idleTimeoutMs: 1000 }), 0, () => now);
  });
  afterEach(() => store.closeAll());

  test('at the bound it is full while the sessions are live', () => {
    store.create(undefined, open);
    expect(store.isFull()).toBe(false);
    store.create(undefined, open);
    now += 999;
    expect(store.isFull()).toBe(true);
  });

  test('expired sessions the sweeper has not reached yet do not count: they end, and there is room', () => {
    const first = store.create(undefined, open);
    store.create(undefined, open);
    now += 1000;
    expect(store.isFull()).toBe(false);
    expect(store.size).toBe(0);
    expect(store.get(first.id)).toBeUndefined();
  });

  test('a session with a request running does not expire, and keeps its place', () => {
    const busy = store.create(undefined, open);
    store.create(undefined, open);
    busy.running++;
    now += 1000;
    expect(store.isFull()).toBe(false);
    expect(store.size).toBe(1);
    store.create(undefined, open);
    expect(store.isFull()).toBe(true);
    busy.running--;
  });
});
