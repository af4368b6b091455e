// The Tasks extension's start-up and shutdown: a bad `task` option fails createServer naming the
// tool, `tasks({ … })` listed in `extensions` sets the defaults, and closing the server ends the
// tasks it runs as failed, saying why.
import 'reflect-metadata';
import { createServer, McpServer, MemoryTaskStore, tasks, Tool, type ToolContext } from '@decorum/core';
import { startApp } from '../../packages/fastify/test/support/app.js';
import { createTask, httpWire } from './support/task-wire.js';

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
  test('closing the server ends its running tasks failed, with the reason', async () => {
    @McpServer({ name: 'closing', version: '1.0.0' })
    class Closing {
      @Tool({ description: 'Waits on its signal', input: null, task: 'optional' })
      async wait(_args: unknown, ctx: ToolContext) {
        await new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
        return 'never';
      }
    }
    const store = new MemoryTaskStore();
    const app = await startApp({ servers: [Closing], taskStore: store });
    const taskId = await createTask(httpWire(app.url), 'wait');
    await app.close();
    const deadline = Date.now() + 3_000;
    while ((await store.get(taskId))?.status === 'working' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await store.get(taskId)).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'The server shut down while the task was running' },
      statusMessage: 'The server shut down while the task was running',
    });
  });
});
