import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { mcpPlugin, type McpPluginOptions } from '@decorum/fastify';
import { pino } from 'pino';
import { Writable } from 'node:stream';

/** Log lines captured from a real pino logger. */
export class LogCapture {
  readonly lines: any[] = [];
  readonly raw: string[] = [];
  readonly logger = pino(
    { level: 'debug' },
    new Writable({
      write: (chunk: Buffer, _enc, done) => {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
          this.raw.push(line);
          this.lines.push(JSON.parse(line));
        }
        done();
      },
    }),
  );
}

export interface TestApp {
  app: FastifyInstance;
  base: string;
  /** `${base}/mcp` */
  url: string;
  close(): Promise<void>;
}

/** A real Fastify app with the plugin, listening on 127.0.0.1 at a free port. */
export async function startApp(options: McpPluginOptions, setup?: (app: FastifyInstance) => Promise<void> | void, logs?: LogCapture): Promise<TestApp> {
  const app: FastifyInstance = Fastify(logs ? { loggerInstance: logs.logger as any, logController: new LogController({ disableRequestLogging: true }) } : { logger: false });
  await app.register(mcpPlugin, options);
  await setup?.(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address() as { port: number };
  const base = `http://127.0.0.1:${address.port}`;
  return { app, base, url: `${base}${options.prefix ?? ''}${options.path ?? '/mcp'}`, close: () => app.close() };
}
