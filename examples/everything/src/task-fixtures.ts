/**
 * The Tasks fixtures of the conformance suite (`io.modelcontextprotocol/tasks`, the ten `tasks-*`
 * scenarios): a plain tool, task tools that sleep, fail, throw a protocol error, ask inside the
 * task, and one that answers an MRTR round before it becomes a task. Served with the rest of the
 * everything example (same server name), as the scenarios expect them.
 */
import 'reflect-metadata';
import { setTimeout as sleep } from 'node:timers/promises';
import { Type } from 'typebox';
import { InternalError, McpServer, Tool, UserError, startTask, type ToolContext } from '@decorum/core';

/** The form `multi_input`'s two asks use (the suite answers `{ name, confirm }`). */
const NAME_AND_CONFIRM = {
  type: 'object',
  properties: { name: { type: 'string', description: 'A name' }, confirm: { type: 'boolean', description: 'Go ahead?' } },
} as const;

@McpServer({ name: 'decorum-everything', version: '0.1.0' })
export class TaskFixtures {
  @Tool({ description: 'Greets someone by name (never a task)', input: Type.Object({ name: Type.String() }) })
  greet(args: { name: string }) {
    return `Hello, ${args.name}!`;
  }

  @Tool({
    description: 'Sleeps for `seconds`, then answers; as a task, a cancel ends the sleep (task: optional)',
    input: Type.Object({ seconds: Type.Number({ minimum: 0 }), label: Type.Optional(Type.String()) }),
    task: 'optional',
  })
  async slow_compute(args: { seconds: number; label?: string }, ctx: ToolContext) {
    await sleep(args.seconds * 1000, undefined, { signal: ctx.signal });
    return `Computed ${args.label ?? 'the result'} in ${args.seconds} s`;
  }

  @Tool({ description: 'Runs ~1 s, then fails with an isError result (task: required)', input: null, task: 'required' })
  async failing_job(_args: unknown, ctx: ToolContext) {
    await sleep(1000, undefined, { signal: ctx.signal });
    throw new UserError('The job failed: its input data set is empty');
  }

  @Tool({ description: 'Fails with a JSON-RPC error (-32603), so its task ends failed (task: optional)', input: null, task: 'optional' })
  async protocol_error_job(_args: unknown, ctx: ToolContext) {
    await sleep(100, undefined, { signal: ctx.signal });
    throw new InternalError('The job hit an internal error on purpose');
  }

  @Tool({
    description: 'Asks to confirm deleting `filename` inside the task, then answers (task: optional)',
    input: Type.Object({ filename: Type.String() }),
    task: 'optional',
  })
  async confirm_delete(args: { filename: string }, ctx: ToolContext) {
    const answer = await ctx.elicit<{ confirm: boolean }>({
      message: `Delete ${args.filename}?`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', description: 'Delete it?' } }, required: ['confirm'] },
    });
    return answer.action === 'accept' && answer.content?.confirm ? `Deleted ${args.filename}` : `Kept ${args.filename} (${answer.action})`;
  }

  @Tool({ description: 'Asks two questions at once inside the task (two keys pending), then answers (task: optional)', input: null, task: 'optional' })
  async multi_input(_args: unknown, ctx: ToolContext) {
    const [first, second] = await Promise.all([
      ctx.elicit<{ name?: string; confirm?: boolean }>({ message: 'First: a name?', requestedSchema: NAME_AND_CONFIRM }),
      ctx.elicit<{ name?: string; confirm?: boolean }>({ message: 'Second: a name?', requestedSchema: NAME_AND_CONFIRM }),
    ]);
    return `Got ${first.content?.name ?? first.action} and ${second.content?.name ?? second.action}`;
  }

  @Tool({
    description: 'Asks the user name as an MRTR round ("user_name"), then becomes a task that greets them (task: required, start: handler)',
    input: null,
    task: { support: 'required', start: 'handler' },
  })
  async test_tool_with_task(_args: unknown, ctx: ToolContext) {
    const answer = await ctx.elicit<{ name: string }>(
      { message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      { key: 'user_name' },
    );
    await startTask(ctx, { statusMessage: 'Greeting' });
    await sleep(200, undefined, { signal: ctx.signal });
    return answer.action === 'accept' ? `Hello, ${answer.content!.name}!` : `No name given (${answer.action}).`;
  }
}
