// The Tasks extension's start-up and shutdown: a bad `task` option fails createServer naming the
// tool, `tasks({ … })` listed in `extensions` sets the defaults, and closing the server ends the
// tasks it runs as failed, saying why.
import 'reflect-metadata';
import { createServer, McpServer, MemoryTaskStore, tasks, Tool, type ToolContext } from '@decorum/core';
import { startApp } from '../../packages/fastify/test/support/app.js';
import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline';
import { serveStdio } from '@decorum/stdio';
import { createTask, httpWire, isTerminal, pollTask, WITH_TASKS } from './support/task-wire.js';

describe('the Tasks extension at start-up', () => {
  test('a bad task option fails start-up naming the tool and what is wrong', () => {
    @McpServer({ name: 'bad', version: '1.0.0' })
    class Bad {
      @Tool({ description: 'x', input: null, task: { support: 'sometimes' } as never })
      job() {
        return 'x';
      }
    }
    expect(() => createServer([Bad])).toThrow(/DECORUM_ERR_INVALID_TOOL_OPTION.*"task".*@Tool "job": task \.support is "sometimes"/);
  });

  test('a TTL above maxTtlMs fails start-up', () => {
    @McpServer({ name: 'long', version: '1.0.0' })
    class Long {
      @Tool({ description: 'x', input: null, task: { support: 'optional', ttlMs: 10_000 } })
      job() {
        return 'x';
      }
    }
    expect(() => createServer([Long], { extensions: [tasks({ maxTtlMs: 5_000 })] })).toThrow(/ttlMs 10000 is above the server's maxTtlMs 5000/);
  });

  test('tasks({ defaultTtlMs, pollIntervalMs }) listed in extensions sets what a task tool gets', async () => {
    @McpServer({ name: 'defaults', version: '1.0.0' })
    class Defaults {
      @Tool({ description: 'x', input: null, task: 'optional' })
      job() {
        return 'x';
      }
    }
    const app = await startApp({ servers: [Defaults], extensions: [tasks({ defaultTtlMs: 5_000, pollIntervalMs: 250 })] });
    try {
      const { result } = await httpWire(app.url).send('tools/call', { name: 'job', arguments: {} });
      expect(result).toMatchObject({ resultType: 'task', ttlMs: 5_000, pollIntervalMs: 250 });
    } finally {
      await app.close();
    }
  });
});

describe('the Tasks extension at shutdown', () => {
  @McpServer({ name: 'closing', version: '1.0.0' })
  class Closing {
    @Tool({ description: 'Waits on its signal', input: null, task: 'optional' })
    async wait(_args: unknown, ctx: ToolContext) {
      await new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
      return 'never';
    }
  }

  test('closing the server ends its running tasks failed, with the reason', async () => {
    const store = new MemoryTaskStore();
    const app = await startApp({ servers: [Closing], taskStore: store });
    const taskId = await createTask(httpWire(app.url), 'wait');
    // app.close() resolves only once the extensions have closed: the task's end is already stored.
    await app.close();
    expect(await store.get(taskId)).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'The server shut down while the task was running' },
      statusMessage: 'The server shut down while the task was running',
    });
  });

  test('over stdio too, closed resolves only once the end of the running task is stored', async () => {
    const store = new MemoryTaskStore();
    const input = new PassThrough();
    const output = new PassThrough();
    const lines = createInterface({ input: output });
    const served = serveStdio(createServer([Closing], { taskStore: store }), { input, output, exitOnClose: false });
    const answered = new Promise<any>((resolve) => lines.once('line', (line) => resolve(JSON.parse(line))));
    const _meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': WITH_TASKS };
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wait', arguments: {}, _meta } })}\n`);
    const { result } = await answered;
    expect(result.resultType).toBe('task');
    await served.close();
    expect(await store.get(result.taskId)).toMatchObject({ status: 'failed', statusMessage: 'The server shut down while the task was running' });
  });
});

describe("a task's ctx.once journal", () => {
  @McpServer({ name: 'journal', version: '1.0.0' })
  class Journal {
    @Tool({ description: 'Journals 1,000 bytes', input: null, task: 'optional' })
    async big(_args: unknown, ctx: ToolContext) {
      return (await ctx.once('big', () => 'x'.repeat(1_000))).length;
    }
  }

  test.each([
    ['the default bound (64 KiB) takes it', undefined, false],
    ["the server's mrtr.journalLimitBytes (500) refuses it", { journalLimitBytes: 500 }, true],
  ])('%s', async (_title, mrtr, refused) => {
    const app = await startApp({ servers: [Journal], mrtr });
    try {
      const wire = httpWire(app.url);
      const done = await pollTask(wire, await createTask(wire, 'big'), isTerminal);
      expect(done.status).toBe('completed');
      expect(done.result.isError ?? false).toBe(refused);
    } finally {
      await app.close();
    }
  });
});
