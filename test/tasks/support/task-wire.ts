// One way to speak to a task server in these tests, over HTTP (Fastify on 127.0.0.1) or stdio (a
// child mcp-serve): a request with the given client capabilities (and a bearer token on HTTP),
// answered as its JSON-RPC response. `tasks/*` carry `Mcp-Name: <taskId>` on HTTP, as clients must.
import { request, StdioProcess } from '@decorum-internal/test-support';
import { startApp, type TestApp } from '../../../packages/fastify/test/support/app.js';
import { rpc } from '../../../packages/fastify/test/support/http.js';

export const TASKS_ID = 'io.modelcontextprotocol/tasks';
/** Client capabilities that declare the Tasks extension (and every ask). */
export const WITH_TASKS = { extensions: { [TASKS_ID]: {} }, elicitation: {}, sampling: {}, roots: {} };

export interface CallOptions {
  readonly capabilities?: Record<string, unknown>;
  readonly token?: string;
}

export interface TaskWire {
  readonly name: string;
  /** The endpoint, on HTTP. */
  readonly url?: string;
  /** The JSON-RPC response (`result` or `error`). */
  send(method: string, params?: Record<string, unknown>, options?: CallOptions): Promise<Record<string, any>>;
}

let ids = 0;

export function httpWire(url: string): TaskWire {
  return {
    name: 'HTTP',
    url,
    async send(method, params = {}, options = {}) {
      const headers: Record<string, string> = {};
      if (typeof params.taskId === 'string') headers['mcp-name'] = params.taskId;
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      const res = await rpc(url, `h${++ids}`, method, params, { capabilities: options.capabilities ?? WITH_TASKS, headers });
      if (res.json === undefined) throw new Error(`HTTP ${res.status} without a JSON body: ${res.text}`);
      return res.json;
    },
  };
}

export function stdioWire(proc: StdioProcess): TaskWire {
  return {
    name: 'stdio',
    send: (method, params = {}, options = {}) => proc.request(request(`s${++ids}`, method, params, { capabilities: options.capabilities ?? WITH_TASKS })),
  };
}

/**
 * The same server both ways, for `describe.each`: `servers` in-process on Fastify at 127.0.0.1,
 * and `module` served by mcp-serve over stdio (started in `beforeAll`, stopped in `afterAll`).
 */
export function bothWires(servers: Function[], module: string): Array<[string, () => TaskWire]> {
  let app: TestApp | undefined;
  let stdio: StdioProcess | undefined;
  beforeAll(async () => {
    app = await startApp({ servers });
    stdio = StdioProcess.serve(module);
  });
  afterAll(async () => {
    stdio?.kill();
    await app?.close();
  });
  return [
    ['HTTP', () => httpWire(app!.url)],
    ['stdio', () => stdioWire(stdio!)],
  ];
}

/** `tools/call` that must create a task: its id. */
export async function createTask(wire: TaskWire, name: string, args: Record<string, unknown> = {}, options?: CallOptions): Promise<string> {
  const answer = await wire.send('tools/call', { name, arguments: args }, options);
  if (answer.result?.resultType !== 'task') throw new Error(`${name} made no task: ${JSON.stringify(answer)}`);
  return answer.result.taskId;
}

/** Polls `tasks/get` until `until` holds of the task (or fails after `timeoutMs`). */
export async function pollTask(
  wire: TaskWire,
  taskId: string,
  until: (task: Record<string, any>) => boolean,
  options: CallOptions & { timeoutMs?: number } = {},
): Promise<Record<string, any>> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const answer = await wire.send('tasks/get', { taskId }, options);
    if (answer.error) throw new Error(`tasks/get failed: ${JSON.stringify(answer.error)}`);
    if (until(answer.result)) return answer.result;
    if (Date.now() > deadline) throw new Error(`task ${taskId} never reached the state; last: ${JSON.stringify(answer.result)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const isTerminal = (task: Record<string, any>) => ['completed', 'failed', 'cancelled'].includes(task.status);
