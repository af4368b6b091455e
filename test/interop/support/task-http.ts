// Tasks over plain HTTP to one mcp-serve instance (2026-07-28, the client declaring the extension and
// form elicitation): the JSON-RPC helpers the several-instance tests share.
import type { HttpProcess } from '../../../packages/fastify/test/support/cli-process.js';
import { request } from '@decorum-internal/test-support';

const TASKS = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { capabilities: { elicitation: { form: {} }, extensions: { [TASKS]: {} } } };

let ids = 0;
/** One request to an instance (`tasks`: the client declares the extension): the JSON-RPC answer. */
export async function rpc(
  instance: HttpProcess,
  method: string,
  params: Record<string, unknown>,
  name: string,
  tasks = true,
): Promise<{ result?: any; error?: any }> {
  const response = await fetch(instance.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      'mcp-name': name,
    },
    body: JSON.stringify(request(++ids, method, params, tasks ? WITH_TASKS : {})),
  });
  return (await response.json()) as { result?: any; error?: any };
}

/** `tasks/get` on `instance`: the task, or `undefined`. */
export const getTask = async (instance: HttpProcess, taskId: string) => (await rpc(instance, 'tasks/get', { taskId }, taskId)).result;

/** Polls `tasks/get` on `instance` until the task's status is `status`; the task then. */
export async function settles(instance: HttpProcess, taskId: string, status: string, timeoutMs = 10_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await getTask(instance, taskId);
    if (task?.status === status) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} is not ${status} within ${timeoutMs} ms: ${JSON.stringify(task)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
