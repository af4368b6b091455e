/** A throw-away redis-server (see redis-server.mjs). */
export interface TestRedis {
  readonly port: number;
  readonly url: string;
  kill(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}
export function startRedis(): Promise<TestRedis>;
