import type { FastifyInstance } from 'fastify';

/**
 * Listens on 127.0.0.1 at a free port, tells the bench runner the port on stdout, and exits
 * cleanly on SIGTERM so that `node --cpu-prof` writes its profile.
 */
export async function listenAndAnnounce(app: FastifyInstance): Promise<void> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  process.stdout.write(`READY ${typeof address === 'object' && address ? address.port : 0}\n`);
  process.once('SIGTERM', () => {
    setTimeout(() => process.exit(0), 2000).unref();
    void app.close().then(() => process.exit(0));
  });
}
