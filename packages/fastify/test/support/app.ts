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
  /** `http://127.0.0.1:PORT`, or `inject://app-N` for an app reached through `app.inject()`. */
  base: string;
  /** `${base}/mcp` */
  url: string;
  close(): Promise<void>;
}

type Setup = (app: FastifyInstance) => Promise<void> | void;

/** A Fastify app with the plugin (and whatever `setup` adds), logging to `logs` when given. */
async function buildApp(options: McpPluginOptions, setup?: Setup, logs?: LogCapture): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify(
    logs ? { loggerInstance: logs.logger as any, logController: new LogController({ disableRequestLogging: true }) } : { logger: false },
  );
  await app.register(mcpPlugin, options);
  await setup?.(app);
  return app;
}

/** A real Fastify app with the plugin, listening on 127.0.0.1 at a free port. */
export async function startApp(options: McpPluginOptions, setup?: Setup, logs?: LogCapture): Promise<TestApp> {
  const app = await buildApp(options, setup, logs);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address() as { port: number };
  const base = `http://127.0.0.1:${address.port}`;
  return { app, base, url: `${base}${options.prefix ?? ''}${options.path ?? '/mcp'}`, close: () => app.close() };
}

/** The apps made by `injectApp`, by the host of their `inject://` URL. */
const injected = new Map<string, FastifyInstance>();
let injectedCount = 0;

/**
 * The same app, never listening: its URL is `inject://app-N/mcp`, and the HTTP helpers (`send`,
 * `rpc`, `postRaw`) hand a request for such a URL to `app.inject()` — no socket, no port. For the
 * header, status and body rules; `startApp` stays where the socket matters (SSE streaming,
 * disconnects, timeouts, concurrency, and the loopback Host check, which reads the connection's
 * local address).
 */
export async function injectApp(options: McpPluginOptions, setup?: Setup, logs?: LogCapture): Promise<TestApp> {
  const app = await buildApp(options, setup, logs);
  await app.ready();
  const host = `app-${++injectedCount}`;
  injected.set(host, app);
  const base = `inject://${host}`;
  const close = async () => {
    injected.delete(host);
    await app.close();
  };
  return { app, base, url: `${base}${options.prefix ?? ''}${options.path ?? '/mcp'}`, close };
}

/** The app behind the host of an `inject://` URL. */
export function injectedApp(host: string): FastifyInstance {
  const app = injected.get(host);
  if (!app) throw new Error(`no app at inject://${host} (closed, or not made by injectApp)`);
  return app;
}
