import { InvalidParamsError, McpServer, Prompt, Resource, Tool, ToolError, type ToolContext } from '@decorum/core';
import { Type, type Static } from 'typebox';

const Echo = Type.Object({ text: Type.String() });
const Slow = Type.Object({ steps: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })), delayMs: Type.Optional(Type.Integer({ minimum: 0 })) });
/** The digest's header fixture: two arguments mirrored into Mcp-Param-* headers. */
export const RegionSql = Type.Object({
  region: Type.String({ 'x-mcp-header': 'Region' }),
  n: Type.Optional(Type.Integer({ 'x-mcp-header': 'N' })),
  dryRun: Type.Optional(Type.Boolean({ 'x-mcp-header': 'Dry-Run' })),
  target: Type.Optional(Type.Object({ zone: Type.Optional(Type.String({ 'x-mcp-header': 'Zone' })) })),
  query: Type.String(),
});
const Greet = Type.Object({ name: Type.String() });

/** Counters the tests read to see what handlers did. */
export const probes = { slowStarted: 0, slowAborted: 0, slowFinished: 0 };

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

@McpServer({ name: 'fixture', version: '1.2.3' })
export class FixtureServer {
  @Tool({ description: 'Echoes its text', input: Echo })
  echo(args: Static<typeof Echo>): string {
    return args.text;
  }

  @Tool({ description: 'Reports progress, then answers; cancellable', input: Slow })
  async slow(args: Static<typeof Slow>, ctx: ToolContext): Promise<string> {
    probes.slowStarted++;
    const steps = args.steps ?? 3;
    try {
      for (let i = 1; i <= steps; i++) {
        await sleep(args.delayMs ?? 10, ctx.signal);
        ctx.progress(i, steps, `step ${i}`);
        ctx.log.info({ step: i }, 'slow step');
      }
    } catch (error) {
      if (ctx.signal.aborted) probes.slowAborted++;
      throw error;
    }
    probes.slowFinished++;
    return `done after ${steps} steps`;
  }

  @Tool({ description: 'Runs a query in a region', input: RegionSql })
  region_sql(args: Static<typeof RegionSql>): string {
    return `ran in ${args.region}${args.n === undefined ? '' : ` n=${args.n}`}`;
  }

  @Tool({ description: 'Always fails as a business error', input: null })
  fail(): string {
    throw new ToolError('it failed on purpose');
  }

  @Tool({ description: 'Reports progress, then fails with a JSON-RPC error from inside the handler', input: null })
  async reject_late(_args: unknown, ctx: ToolContext): Promise<string> {
    ctx.progress(1);
    throw new InvalidParamsError('rejected from inside the handler');
  }

  @Resource({ uri: 'mem://a', mimeType: 'text/plain' })
  a(): string {
    return 'A';
  }

  @Resource({ uri: 'mem://café', name: 'cafe', mimeType: 'text/plain' })
  cafe(): string {
    return 'a URI that is not header-safe';
  }

  @Resource({ uriTemplate: 'mem://{id}', mimeType: 'text/plain' })
  byId({ id }: { id: string }): string {
    return `item ${id}`;
  }

  @Prompt({ name: '天気', description: 'A prompt whose name is not header-safe', input: null })
  tenki(): string {
    return 'Describe the weather.';
  }

  @Prompt({ description: 'Greets', input: Greet })
  greet(args: Static<typeof Greet>): string {
    return `Hello, ${args.name}!`;
  }
}

/** A second server, for multi-mount tests: tools only, no prompts or resources. */
@McpServer({ name: 'other', version: '0.0.1' })
export class OtherServer {
  @Tool({ description: 'Adds one', input: Type.Object({ n: Type.Integer() }) })
  add_one(args: { n: number }): string {
    return String(args.n + 1);
  }
}
