import { request as httpRequest, type ClientRequest } from 'node:http';
import { until } from '@decorum-internal/test-support';
import { body, standardHeaders } from './support/http.js';
import { LogCapture, startApp, type TestApp } from './support/app.js';
import { FixtureServer, probes } from './support/fixture-server.js';

/** Starts a request and hands back the raw request and everything received so far. */
function open(url: string, message: ReturnType<typeof body>) {
  const received: string[] = [];
  let onData: () => void = () => {};
  const req: ClientRequest = httpRequest(url, { method: 'POST', headers: standardHeaders(message), agent: false }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      received.push(chunk);
      onData();
    });
  });
  req.on('error', () => {}); // the test destroys it
  req.end(JSON.stringify(message));
  const firstData = new Promise<void>((resolve) => (onData = resolve));
  return { req, received, firstData };
}

/** Closing the connection cancels the request (spec "Cancellation"; #61). */
describe('cancellation by disconnect', () => {
  let t: TestApp;
  const logs = new LogCapture();
  beforeAll(async () => {
    t = await startApp({ servers: [FixtureServer] }, undefined, logs);
  });
  afterAll(() => t.close());

  test('dropping an SSE stream aborts the handler (ctx.signal) and nothing more is written for it', async () => {
    const before = { ...probes };
    const call = open(t.url, body('c1', 'tools/call', { name: 'slow', arguments: { steps: 20, delayMs: 25 } }, { progressToken: 'c1' }));
    await call.firstData; // the first progress event arrived: the handler is running
    expect(call.received.join('')).toContain('notifications/progress');
    call.req.destroy();
    await until('the handler aborted', () => probes.slowAborted === before.slowAborted + 1);
    expect(probes.slowStarted).toBe(before.slowStarted + 1);
    expect(probes.slowFinished).toBe(before.slowFinished);
    const received = call.received.join('');
    await new Promise((r) => setTimeout(r, 100));
    expect(call.received.join('')).toBe(received);
    expect(received).not.toContain('"result"');
    await until('the cancellation logged', () => logs.lines.some((l) => l.rpcId === 'c1' && l.cancelled === true));
  });

  test('dropping a plain JSON request aborts its handler too', async () => {
    const before = { ...probes };
    const call = open(t.url, body('c2', 'tools/call', { name: 'slow', arguments: { steps: 20, delayMs: 25 } }));
    await until('the handler started', () => probes.slowStarted === before.slowStarted + 1);
    call.req.destroy();
    await until('the handler aborted', () => probes.slowAborted === before.slowAborted + 1);
    expect(probes.slowFinished).toBe(before.slowFinished);
    expect(call.received).toEqual([]);
  });

  test('other requests are unaffected by a cancelled one', async () => {
    const before = { ...probes };
    const dropped = open(t.url, body('c3', 'tools/call', { name: 'slow', arguments: { steps: 20, delayMs: 25 } }, { progressToken: 'c3' }));
    const kept = open(t.url, body('c4', 'tools/call', { name: 'slow', arguments: { steps: 3, delayMs: 25 } }, { progressToken: 'c4' }));
    await dropped.firstData;
    dropped.req.destroy();
    await until('the kept call finished', () => probes.slowFinished === before.slowFinished + 1);
    await until('the kept call answered', () => kept.received.join('').includes('"id":"c4"'));
    expect(probes.slowAborted).toBe(before.slowAborted + 1);
  });
});
