import type { Logger, NotificationBus } from '@decorum/core';
import { CliError } from './load-module.js';

/** How long start-up waits for Redis before serving anyway (the bus keeps retrying and buffering). */
const READY_WAIT_MS = 5000;

/**
 * The bus named by `--bus` / `DECORUM_BUS_URL`. `@decorum/redis` (and its Redis client) is loaded
 * only here, when a bus is asked for, so a single-instance server never pays for it.
 */
export async function busFromUrl(url: string | undefined, logger?: Logger): Promise<NotificationBus | undefined> {
  if (url === undefined) return undefined;
  let redis: typeof import('@decorum/redis');
  try {
    redis = await import('@decorum/redis');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND')
      throw new CliError('--bus (or DECORUM_BUS_URL) needs the @decorum/redis package: npm install @decorum/redis');
    throw error;
  }
  const bus = new redis.RedisNotificationBus({ url, logger });
  let timer: NodeJS.Timeout | undefined;
  const joined = await Promise.race([bus.ready().then(() => true), new Promise<false>((resolve) => (timer = setTimeout(resolve, READY_WAIT_MS, false)))]);
  clearTimeout(timer);
  if (!joined) (logger ?? console).warn(`mcp-serve: the notification bus is not connected after ${READY_WAIT_MS} ms; serving anyway (it keeps retrying)`);
  return bus;
}
