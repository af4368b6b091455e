// The guarded fixture served the two ways its tests need: mcp-serve on stdio, and Fastify on
// 127.0.0.1 with OAuth tokens signed by a local authorization server.
import type { McpAuthOptions } from '@decorum/fastify';
import { openLegacySession, StdioProcess } from '@decorum-internal/test-support';
import { startApp, type TestApp } from '../../../packages/fastify/test/support/app.js';
import { AuthServerFixture } from '../../../packages/fastify/test/support/auth-fixture.js';
import { Guarded } from '../fixtures/guarded-server.js';

const RESOURCE = 'https://mcp.example.test/mcp';

/** mcp-serve on the guarded fixture (per-caller lists), info logs on stderr, a legacy session open beside the modern era. */
export async function serveGuardedStdio(): Promise<StdioProcess> {
  const server = StdioProcess.serve('test/hardening/fixtures/guarded-server.ts', [], { DECORUM_LOG_LEVEL: 'info' });
  await openLegacySession(server);
  return server;
}

/** An authorization server and the guarded fixture's HTTP apps that trust it. */
export class GuardedHttp {
  private readonly apps: TestApp[] = [];
  private constructor(private readonly as: AuthServerFixture) {}

  static async start(): Promise<GuardedHttp> {
    return new GuardedHttp(await AuthServerFixture.start(RESOURCE));
  }

  /** The guarded fixture on 127.0.0.1 with OAuth on, lists as given. */
  async serve(lists: 'per-caller' | 'public'): Promise<TestApp> {
    const auth: McpAuthOptions = { resource: RESOURCE, authorizationServers: [this.as.issuer], jwt: { jwksUri: this.as.jwksUri } };
    const app = await startApp({ servers: [Guarded], lists, auth });
    this.apps.push(app);
    return app;
  }

  /** An Authorization header with a token carrying `claims` (subject alice unless given). */
  async bearer(claims: Record<string, unknown>): Promise<{ authorization: string }> {
    return { authorization: `Bearer ${await this.as.token(claims)}` };
  }

  async close(): Promise<void> {
    await Promise.all(this.apps.map((app) => app.close()));
    await this.as.close();
  }
}
