// The official v1 client (@modelcontextprotocol/sdk 1.x, its experimental tasks API) runs the
// legacy (2025-11-25) core tasks of examples/everything and prints one JSON line of what it saw.
//   node legacy-tasks-client.mjs <2025-11-25 | 2025-06-18> <stdio | http> <command-or-url> [args...]
// With 2025-06-18 the client's initialize asks for that revision instead (the v1 client always
// asks for its latest), to show that older sessions see no tasks.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema, TaskStatusNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { v1Transport } from '../../interop/clients/v1-transport.mjs';

const [revision, transportKind, target, ...args] = process.argv.slice(2);

/** What the client's elicitation handler was asked (the message and the related-task `_meta`). */
const elicited = [];
const statuses = [];

/** Accepts any form: true for booleans, 1 for numbers, the first option or "yes" for strings. */
function answerTo(schema) {
  const content = {};
  for (const [name, field] of Object.entries(schema?.properties ?? {})) {
    if (field.type === 'boolean') content[name] = true;
    else if (field.type === 'number' || field.type === 'integer') content[name] = 1;
    else if (field.type === 'string') content[name] = field.enum?.[0] ?? field.oneOf?.[0]?.const ?? 'yes';
  }
  return content;
}

async function connect() {
  const client = new Client({ name: 'decorum-legacy-tasks', version: '0.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    elicited.push({ message: request.params.message, meta: request.params._meta ?? null });
    return { action: 'accept', content: answerTo(request.params.requestedSchema) };
  });
  client.setNotificationHandler(TaskStatusNotificationSchema, (notification) => statuses.push(notification.params.status));
  const transport = await v1Transport(transportKind, target, args);
  if (revision !== '2025-11-25') {
    // The v1 client asks for its latest revision; this one asks for an older one instead.
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      if (message.method === 'initialize') message = { ...message, params: { ...message.params, protocolVersion: revision } };
      return send(message, options);
    };
  }
  await client.connect(transport);
  return client;
}

/** A request's JSON-RPC error, as { code, message }; `null` when it answered. */
async function errorOf(promise) {
  try {
    await promise;
    return null;
  } catch (error) {
    return { code: error.code, message: error.message };
  }
}

/** Creates a task with the client's own task option, without waiting for it. */
async function createTask(client, name, toolArgs, ttl) {
  const created = await client.request({ method: 'tools/call', params: { name, arguments: toolArgs } }, CreateTaskResultSchema, {
    task: ttl === undefined ? {} : { ttl },
  });
  return created.task;
}

async function settle(client, taskId) {
  for (;;) {
    const task = await client.experimental.tasks.getTask(taskId);
    if (['completed', 'failed', 'cancelled'].includes(task.status)) return task;
    await new Promise((resolve) => setTimeout(resolve, task.pollInterval ?? 100));
  }
}

async function modernRevision(client) {
  const tools = (await client.listTools()).tools;
  const taskSupport = Object.fromEntries(tools.map((tool) => [tool.name, tool.execution?.taskSupport ?? null]));
  const capabilities = client.getServerCapabilities().tasks ?? null;

  // callToolStream: creates the task (the tool is a task tool), polls, then takes the result.
  const stream = [];
  for await (const message of client.experimental.tasks.callToolStream({ name: 'slow_compute', arguments: { seconds: 1 } }, CallToolResultSchema)) {
    stream.push(
      message.type === 'result'
        ? { type: 'result', text: message.result.content?.[0]?.text ?? null }
        : { type: message.type, status: message.task?.status ?? null, error: message.error?.message },
    );
  }

  // Create, get, then the blocking tasks/result, with a ttl the server keeps.
  const task = await createTask(client, 'slow_compute', { seconds: 1 }, 60_000);
  const got = await client.experimental.tasks.getTask(task.taskId);
  const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
  const after = await client.experimental.tasks.getTask(task.taskId);

  // An elicitation inside the task, answered by this client's handler.
  const confirm = [];
  for await (const message of client.experimental.tasks.callToolStream(
    { name: 'confirm_delete', arguments: { filename: 'report.txt' } },
    CallToolResultSchema,
  )) {
    confirm.push(
      message.type === 'result'
        ? { type: 'result', text: message.result.content?.[0]?.text ?? null }
        : { type: message.type, status: message.task?.status ?? null, error: message.error?.message },
    );
  }

  // Cancel a long task; cancel it again.
  const long = await createTask(client, 'slow_compute', { seconds: 60 });
  const cancelled = await client.experimental.tasks.cancelTask(long.taskId);
  const cancelledGet = await client.experimental.tasks.getTask(long.taskId);
  const cancelAgain = await errorOf(client.experimental.tasks.cancelTask(long.taskId));

  // isError ⇒ failed, the result kept for tasks/result.
  const failing = await createTask(client, 'failing_job', {});
  const failed = await settle(client, failing.taskId);
  const failedResult = await client.experimental.tasks.getTaskResult(failing.taskId, CallToolResultSchema);

  // A required tool called without a task; an unknown id.
  const requiredPlain = await errorOf(client.request({ method: 'tools/call', params: { name: 'failing_job', arguments: {} } }, CallToolResultSchema));
  const unknown = await errorOf(client.experimental.tasks.getTask('no-such-task'));

  const listed = (await client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId);
  return {
    capabilities,
    taskSupport,
    stream,
    created: task,
    got,
    result,
    after,
    confirm,
    cancelled,
    cancelledGet,
    cancelAgain,
    failedTask: failed,
    failedResult,
    requiredPlain,
    unknown,
    ids: { task: task.taskId, long: long.taskId, failing: failing.taskId },
    listed,
  };
}

async function olderRevision(client) {
  const tools = (await client.listTools()).tools;
  const taskSupport = Object.fromEntries(tools.map((tool) => [tool.name, tool.execution?.taskSupport ?? null]));
  const capabilities = client.getServerCapabilities().tasks ?? null;
  // No tasks here: the task tools run inline, even the required one.
  const inline = await client.request({ method: 'tools/call', params: { name: 'slow_compute', arguments: { seconds: 0 } } }, CallToolResultSchema);
  const required = await client.request({ method: 'tools/call', params: { name: 'failing_job', arguments: {} } }, CallToolResultSchema);
  const list = await errorOf(client.request({ method: 'tasks/list', params: {} }, CallToolResultSchema));
  return { capabilities, taskSupport, inline, required, list };
}

let client;
try {
  client = await connect();
  const out = revision === '2025-11-25' ? await modernRevision(client) : await olderRevision(client);
  // A second session on the same server lists none of the first one's tasks.
  let otherListed = null;
  if (revision === '2025-11-25' && transportKind === 'http') {
    const other = await connect();
    otherListed = (await other.experimental.tasks.listTasks()).tasks.map((t) => t.taskId);
    await other.close();
  }
  process.stdout.write(`${JSON.stringify({ ...out, otherListed, elicited, statuses })}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ failed: String(error?.stack ?? error) })}\n`);
  process.exitCode = 1;
} finally {
  await client?.close().catch(() => {});
}
