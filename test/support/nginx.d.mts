/** A throw-away nginx load balancer (see nginx.mjs). */
export interface TestNginx {
  readonly port: number;
  /** The balanced endpoint, `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  stop(): Promise<void>;
}
export function startNginx(upstreams: string[]): Promise<TestNginx>;
