/**
 * The "reports" example: a long job as a task (the Tasks extension, `io.modelcontextprotocol/tasks`).
 * `build_report` collects a quarter's orders in steps, reports progress (the task's
 * `statusMessage`), asks half-way whether to include draft orders (the task waits in
 * `input_required` until `tasks/update` answers, then goes on where it stopped), renders, and
 * stops at once when the task is cancelled (`ctx.signal`).
 *
 * Serve it with `mcp-serve examples/reports/dist/reports.js` (stdio) or `--http`; a client that
 * declares the extension gets a task, any other gets the report as an ordinary (long) call.
 */
import 'reflect-metadata';
import { setTimeout as sleep } from 'node:timers/promises';
import { Type } from 'typebox';
import { McpServer, Tool, type ToolContext } from '@decorum/core';

/** One order of the (made-up) sales data. */
interface Order {
  readonly id: string;
  readonly amount: number;
  readonly draft: boolean;
}

/** How long each collecting step takes, in ms: `REPORTS_STEP_MS` (tests make it short). */
const STEP_MS = Number(process.env.REPORTS_STEP_MS ?? 500);
const REGIONS = ['north', 'south', 'east', 'west'] as const;

/** A region's orders of a quarter: deterministic made-up data, after a step's worth of "work". */
async function collectRegion(quarter: string, region: string, signal: AbortSignal): Promise<Order[]> {
  await sleep(STEP_MS, undefined, { signal });
  const seed = [...`${quarter}/${region}`].reduce((sum, ch) => sum + ch.charCodeAt(0), 0);
  return Array.from({ length: 3 }, (_, i) => ({ id: `${region}-${i + 1}`, amount: ((seed * (i + 7)) % 900) + 100, draft: i === 2 }));
}

const QuarterArgs = Type.Object({ quarter: Type.String({ pattern: '^Q[1-4]-\\d{4}$', description: 'The quarter, e.g. Q3-2026' }) });

@McpServer({ name: 'reports', version: '1.0.0' })
export class Reports {
  @Tool({
    description: 'Builds the sales report of a quarter: collects every region, asks whether to count draft orders, then renders',
    input: QuarterArgs,
    task: { support: 'optional', ttlMs: 600_000, pollIntervalMs: 500 },
  })
  async build_report({ quarter }: { quarter: string }, ctx: ToolContext) {
    const orders: Order[] = [];
    for (const [i, region] of REGIONS.entries()) {
      ctx.progress(i, REGIONS.length + 1, `collecting ${region}`);
      orders.push(...(await collectRegion(quarter, region, ctx.signal)));
    }
    const drafts = orders.filter((order) => order.draft).length;
    const answer = await ctx.elicit<{ include: boolean }>({
      message: `${orders.length} orders collected, ${drafts} of them drafts. Count the drafts?`,
      requestedSchema: { type: 'object', properties: { include: { type: 'boolean', description: 'Count draft orders' } }, required: ['include'] },
    });
    const include = answer.action === 'accept' && answer.content?.include === true;
    ctx.progress(REGIONS.length, REGIONS.length + 1, 'rendering');
    await sleep(STEP_MS, undefined, { signal: ctx.signal });
    const counted = include ? orders : orders.filter((order) => !order.draft);
    const total = counted.reduce((sum, order) => sum + order.amount, 0);
    return `Sales report ${quarter}: ${counted.length} orders${include ? ' (drafts included)' : ''}, total ${total}`;
  }
}
