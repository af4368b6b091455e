import Fastify from 'fastify';
import { tickShapeKept } from '@decorum/transport-kit';
import { createHttpLogger, mcpPlugin, serveHttp } from '@decorum/fastify';
import { Ops } from '@decorum-internal/test-support/fixtures';

// The block malloc-trim.ts allocates and drops to raise glibc's thresholds.
const TRIM_BLOCK_BYTES = 8 * 1024 * 1024;

// Tuning the process belongs to the runner that owns it, never to a plugin inside someone's app.
// Jest gives this file its own module registry, so the tuning starts undone here. The tests run in order.
describe('process tuning (tick shape, malloc trim threshold)', () => {
  // The sizes Buffer.allocUnsafeSlow is called with, while a test runs.
  const allocUnsafeSlow = Buffer.allocUnsafeSlow;
  let sizes: number[];
  beforeEach(() => {
    sizes = [];
    Buffer.allocUnsafeSlow = (size: number) => (sizes.push(size), allocUnsafeSlow(size));
  });
  afterEach(() => {
    Buffer.allocUnsafeSlow = allocUnsafeSlow;
  });

  test('mcpPlugin registered into a plain Fastify app leaves the process untouched', async () => {
    const app = Fastify({ logger: false });
    await app.register(mcpPlugin, { servers: [Ops] });
    await app.ready();
    await app.close();
    expect(tickShapeKept()).toBe(false);
    expect(sizes).not.toContain(TRIM_BLOCK_BYTES);
  });

  test('serveHttp, which owns the process, applies both', async () => {
    const served = await serveHttp([Ops], { port: 0, handleSignals: false, logger: createHttpLogger({ level: 'silent' }), requestLogLevel: false });
    try {
      expect(tickShapeKept()).toBe(true);
      expect(sizes).toContain(TRIM_BLOCK_BYTES);
    } finally {
      await served.close();
    }
  });
});
