import { createServer, type DecorumServer, type JsonRpcNotification, type ServerOptions, type ServerTarget } from '@decorum/core';
import { encodeMessage } from '@decorum/core/transport';
import { Writable } from 'node:stream';
import { pino, type Level } from 'pino';

/** A silent logger for tests that do not look at logs. */
export const quietLogger = pino({ level: 'silent' });

/** A logger that keeps every line it writes, parsed, for tests that look at logs. */
export function capturingLogger(level: Level = 'info') {
  const lines: Array<Record<string, any>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}

/** A server plus a `call` that runs one message through the engine and returns the wire JSON. */
export function harness(targets: ServerTarget[], options: ServerOptions = {}) {
  const server: DecorumServer = createServer(targets, { logger: quietLogger, ...options });
  async function call(message: unknown, notifications: JsonRpcNotification[] = [], signal?: AbortSignal) {
    const response = await server.engine.handle(message, { signal, notify: (n) => notifications.push(n) });
    return response === undefined ? undefined : (JSON.parse(encodeMessage(response)) as Record<string, any>);
  }
  return { server, call };
}
