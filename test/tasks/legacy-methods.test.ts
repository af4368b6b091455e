import pino from 'pino';
import { MemoryTaskStore, type TaskRecord } from '@decorum/core';
import { PipelineCall } from '../../packages/core/src/pipeline/call.js';
import type { AuthInfo, RequestContext } from '../../packages/core/src/context/request-context.js';
import type { JsonObject, JsonRpcNotification, JsonRpcRequest } from '../../packages/core/src/protocol/types.js';
import { SessionAskSeam } from '../../packages/core/src/asks/session/session-asks.js';
import { ClientRequests, type ClientRequestOutlet } from '../../packages/core/src/asks/session/client-requests.js';
import { LegacyTasks } from '../../packages/core/src/extensions/tasks/legacy/legacy-tasks.js';
import { legacyTaskEra } from '../../packages/core/src/extensions/tasks/legacy/legacy-task-era.js';
import { legacySessionOf } from '../../packages/core/src/extensions/tasks/legacy/legacy-task-requestor.js';
import type { TaskSupport } from '../../packages/core/src/extensions/tasks/task-option.js';
import { legacyTaskCapabilities, legacyTaskParam, legacyTaskToolFields } from '../../packages/core/src/extensions/tasks/legacy/legacy-task-negotiation.js';

/**
 * The 2025-11-25 tasks methods and the session side of a legacy task, on the memory store: the
 * wire shapes, who may reach a task, blocking `tasks/result`, cancel's rules, and the related-task
 * asks. (test/tasks/legacy.test.ts drives the same through the official v1 client.)
 */
const log = pino({ level: 'silent' });

class Call extends PipelineCall {
  readonly protocolVersion = '2025-11-25';
  readonly id = 1;
  readonly target = undefined;
  readonly peer = undefined;
  readonly ctx = {} as RequestContext;
  readonly log = log;
  readonly signal: AbortSignal;
  constructor(
    readonly method: string,
    readonly params: JsonObject,
    readonly sessionId: string | undefined,
    readonly asks: SessionAskSeam | undefined = undefined,
    readonly auth: AuthInfo | undefined = undefined,
    signal = new AbortController().signal,
  ) {
    super(false);
    this.signal = signal;
  }
}

function session(outlet: ClientRequestOutlet) {
  const requests = new ClientRequests(60_000, log);
  const core = { protocolVersion: '2025-11-25', clientCapabilities: { elicitation: { form: {} } }, requests, outlet };
  return { requests, seam: new SessionAskSeam(core, outlet) };
}

let store: MemoryTaskStore;
let legacy: LegacyTasks;
beforeEach(() => {
  store = new MemoryTaskStore();
  legacy = new LegacyTasks(store);
});
afterEach(async () => {
  legacy.close();
  await store.close();
});

async function stored(overrides: Partial<TaskRecord> = {}): Promise<TaskRecord> {
  const now = Date.now();
  const record: TaskRecord = {
    taskId: `task-${Math.random().toString(36).slice(2)}`,
    session: 'S1',
    era: '2025-11-25',
    tool: 'slow_compute',
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 250,
    inputRequests: {},
    answers: {},
    journal: {},
    version: 1,
    ...overrides,
  };
  await store.create(record);
  return record;
}

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (error: { code?: number }) => error.code,
  );

test('initialize and tools/list: capabilities.tasks and execution.taskSupport on 2025-11-25 only', () => {
  expect(legacyTaskCapabilities('2025-11-25')).toEqual({ tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } });
  expect(legacyTaskCapabilities('2025-06-18')).toBeUndefined();
  expect(legacyTaskToolFields('required', '2025-11-25')).toEqual({ execution: { taskSupport: 'required' } });
  expect(legacyTaskToolFields(undefined, '2025-11-25')).toBeUndefined();
  expect(legacyTaskToolFields('optional', '2025-06-18')).toBeUndefined();
});

const support = (kind: 'optional' | 'required', ttlMs: number | null = 3_600_000): TaskSupport => ({
  support: kind,
  ttlMs,
  pollIntervalMs: 1000,
  start: 'handler',
  resumable: false,
});

test('tools/call: the task param makes a task; required without it and forbidden with it are -32601', () => {
  const view = (params: JsonObject) => ({ params: { name: 'job', arguments: {}, ...params }, clientCapabilities: {} });
  expect(legacyTaskEra.runsAsTask(view({ task: {} }), support('optional'))).toBe(true);
  expect(legacyTaskEra.runsAsTask(view({}), support('optional'))).toBe(false);
  expect(() => legacyTaskEra.runsAsTask(view({}), support('required'))).toThrow(
    expect.objectContaining({ code: -32601, message: expect.stringContaining('params.task') }),
  );
  expect(() => legacyTaskEra.runsAsTask(view({ task: { ttl: -1 } }), support('optional'))).toThrow(
    expect.objectContaining({ code: -32602, message: expect.stringContaining('ttl') }),
  );
  expect(() => legacyTaskParam({ name: 'job', task: {} }, undefined, '2025-11-25', 'job')).toThrow(expect.objectContaining({ code: -32601 }));
  // Before 2025-11-25 there are no tasks: even a required tool runs inline.
  expect(legacyTaskParam({ name: 'job' }, 'required', '2025-06-18', 'job')).toBeUndefined();
  // The client's ttl is kept up to the tool's; a legacy task starts at once.
  expect(legacyTaskEra.support!({ name: 'job', task: { ttl: 5000 } }, support('optional'))).toMatchObject({ ttlMs: 5000, start: 'immediate' });
  expect(legacyTaskEra.support!({ name: 'job', task: { ttl: 5000 } }, support('optional', 1000))).toMatchObject({ ttlMs: 1000 });
  expect(legacyTaskEra.support!({ name: 'job', task: { ttl: 5000 } }, support('optional', null))).toMatchObject({ ttlMs: 5000 });
  expect(legacyTaskEra.support!({ name: 'job', task: {} }, support('optional', 1000))).toMatchObject({ ttlMs: 1000 });
});

test('created and tasks/get answer the 2025-11-25 Task (ttl, pollInterval, ISO dates); isError fails the task, keeping the result', async () => {
  const record = await stored({ statusMessage: 'halfway' });
  const task = {
    taskId: record.taskId,
    status: 'working',
    statusMessage: 'halfway',
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttl: 60_000,
    pollInterval: 250,
  };
  expect(legacyTaskEra.created(record)).toEqual({ task });
  expect(legacyTaskEra.detailed(record)).toEqual(task);
  expect(await legacy.methods.get(new Call('tasks/get', { taskId: record.taskId }, 'S1'))).toEqual(task);
  expect(legacyTaskEra.settled({ content: [], isError: true })).toMatchObject({ status: 'failed', result: { isError: true } });
  expect(legacyTaskEra.settled({ content: [] })).toEqual({ status: 'completed', result: { content: [] } });
});

test('a task is reached only by its session (without auth) or its principal (with auth); others get -32602 as for an unknown id', async () => {
  const mine = await stored();
  // Owners are what the Tasks extension records (`ownerOf`: issuer, principal, client).
  const owned = await stored({ owner: JSON.stringify(['', 'alice', '']), session: 'S9' });
  const modern = await stored({ era: 'modern', session: undefined });
  expect(await code(legacy.methods.get(new Call('tasks/get', { taskId: mine.taskId }, 'S2')))).toBe(-32602);
  expect(await code(legacy.methods.get(new Call('tasks/get', { taskId: 'nope' }, 'S1')))).toBe(-32602);
  expect(await code(legacy.methods.get(new Call('tasks/get', { taskId: modern.taskId }, undefined)))).toBe(-32602);
  expect(await code(legacy.methods.get(new Call('tasks/get', {}, 'S1')))).toBe(-32602);
  const alice: AuthInfo = { principal: 'alice', scopes: [], claims: {} };
  const bob: AuthInfo = { principal: 'bob', scopes: [], claims: {} };
  expect(await code(legacy.methods.get(new Call('tasks/get', { taskId: owned.taskId }, 'S1', undefined, alice)))).toBe('answered');
  expect(await code(legacy.methods.get(new Call('tasks/get', { taskId: owned.taskId }, 'S9', undefined, bob)))).toBe(-32602);
});

test('tasks/list pages the session’s own tasks, newest first', async () => {
  const ids: string[] = [];
  for (let i = 0; i < 55; i++) ids.push((await stored({ createdAt: 1_000 + i, lastUpdatedAt: 1_000 + i, ttlMs: null })).taskId);
  await stored({ session: 'S2' });
  const first = await legacy.methods.list(new Call('tasks/list', {}, 'S1'));
  expect((first.tasks as JsonObject[]).length).toBe(50);
  expect((first.tasks as JsonObject[])[0].taskId).toBe(ids[54]);
  const second = await legacy.methods.list(new Call('tasks/list', { cursor: first.nextCursor }, 'S1'));
  expect((second.tasks as JsonObject[]).map((t) => t.taskId)).toEqual(ids.slice(0, 5).reverse());
  expect(second.nextCursor).toBeUndefined();
  expect(await code(legacy.methods.list(new Call('tasks/list', { cursor: 'made-up' }, 'S1')))).toBe(-32602);
  expect(await code(legacy.methods.list(new Call('tasks/list', { cursor: 7 }, 'S1')))).toBe(-32602);
});

test('tasks/cancel: cancelled before the answer, which is the Task; a second cancel is -32602', async () => {
  const record = await stored();
  const answer = await legacy.methods.cancel(new Call('tasks/cancel', { taskId: record.taskId }, 'S1'));
  expect(answer).toMatchObject({ taskId: record.taskId, status: 'cancelled', statusMessage: expect.any(String) });
  expect((await store.get(record.taskId))?.status).toBe('cancelled');
  const again = legacy.methods.cancel(new Call('tasks/cancel', { taskId: record.taskId }, 'S1'));
  await expect(again).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('already cancelled') });
});

test('tasks/result blocks until the task ends, then answers its result with the related-task _meta, or its error as it was', async () => {
  const ok = await stored();
  let answered: JsonObject | undefined;
  const waiting = legacy.methods.result(new Call('tasks/result', { taskId: ok.taskId }, 'S1')).then((result) => (answered = result));
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(answered).toBeUndefined();
  await store.transition(ok.taskId, legacyTaskEra.settled({ content: [{ type: 'text', text: 'done' }], isError: true }));
  await waiting;
  expect(answered).toEqual({
    content: [{ type: 'text', text: 'done' }],
    isError: true,
    _meta: { 'io.modelcontextprotocol/related-task': { taskId: ok.taskId } },
  });

  const broken = await stored();
  await store.transition(broken.taskId, { status: 'failed', error: { code: -32603, message: 'the job broke', data: { step: 2 } } });
  await expect(legacy.methods.result(new Call('tasks/result', { taskId: broken.taskId }, 'S1'))).rejects.toMatchObject({
    code: -32603,
    message: 'the job broke',
    data: { step: 2 },
  });

  const gone = await stored();
  await legacy.methods.cancel(new Call('tasks/cancel', { taskId: gone.taskId }, 'S1'));
  await expect(legacy.methods.result(new Call('tasks/result', { taskId: gone.taskId }, 'S1'))).rejects.toMatchObject({
    message: expect.stringContaining('cancelled'),
  });
});

test('a task’s ask is a related-task request on the pending tasks/result stream, the task input_required while it is out', async () => {
  const sessionOut: (JsonRpcRequest | JsonRpcNotification)[] = [];
  const streamOut: (JsonRpcRequest | JsonRpcNotification)[] = [];
  const { seam, requests } = session((message) => sessionOut.push(message));
  const record = await stored();
  const derived = legacy.derive(
    new Call('tools/call', { name: 'job', task: {}, _meta: { progressToken: 'p1' } }, 'S1', seam),
    record,
    new AbortController().signal,
  )!;
  // A modern call (no session seam) is not the legacy era's.
  expect(legacy.derive(new Call('tools/call', { name: 'job' }, undefined), record, new AbortController().signal)).toBeUndefined();

  // Progress keeps the call's token and goes to the session while no tasks/result waits.
  derived.progress!(1, 2, 'half');
  expect(sessionOut.at(-1)).toMatchObject({ method: 'notifications/progress', params: { progressToken: 'p1', progress: 1, total: 2, message: 'half' } });

  const resultCall = new Call('tasks/result', { taskId: record.taskId }, 'S1', new SessionAskSeam(seam.session, (message) => streamOut.push(message)));
  const result = legacy.methods.result(resultCall);
  await new Promise((resolve) => setTimeout(resolve, 20));
  const asked = derived.asks!.run(
    { request: { jsonrpc: '2.0', id: 1, method: 'tools/call' }, clientCapabilities: {}, signal: new AbortController().signal, log, auth: undefined },
    { mrtr: undefined, name: 'job', args: {} },
    (asks) => asks.elicit({ message: 'Go on?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }),
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  const request = streamOut.find((message): message is JsonRpcRequest => 'id' in message && message.method === 'elicitation/create');
  expect(request?.params?._meta).toEqual({ 'io.modelcontextprotocol/related-task': { taskId: record.taskId } });
  expect((await store.get(record.taskId))?.status).toBe('input_required');
  expect(streamOut).toContainEqual(
    expect.objectContaining({ method: 'notifications/tasks/status', params: expect.objectContaining({ status: 'input_required' }) }),
  );

  requests.settle(request!.id, { ok: true, result: { action: 'accept', content: { ok: true } } });
  expect(await asked).toMatchObject({ kind: 'value', value: { action: 'accept', content: { ok: true } } });
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect((await store.get(record.taskId))?.status).toBe('working');

  await store.transition(record.taskId, legacyTaskEra.settled({ content: [] }));
  expect(await result).toMatchObject({ content: [] });
  // The stream is released with its request: later messages go to the session again.
  expect(streamOut.at(-1)).toMatchObject({ method: 'notifications/tasks/status', params: { status: 'completed' } });
});

test('stdio has one session without an id on the wire: its tasks are bound to the session object', async () => {
  const a = session(() => undefined).seam;
  const b = session(() => undefined).seam;
  const first = legacySessionOf(new Call('tools/call', {}, undefined, a));
  expect(first).toMatch(/^unnamed:/);
  expect(legacySessionOf(new Call('tasks/get', {}, undefined, a))).toBe(first);
  expect(legacySessionOf(new Call('tasks/get', {}, undefined, b))).not.toBe(first);
  const record = await stored({ session: first });
  expect(await code(legacy.methods.get(new Call('tasks/get', { taskId: record.taskId }, undefined, a)))).toBe('answered');
  expect(await code(legacy.methods.get(new Call('tasks/get', { taskId: record.taskId }, undefined, b)))).toBe(-32602);
  // Outside any session (no id, no seam) nothing is listed.
  expect(await legacy.methods.list(new Call('tasks/list', {}, undefined))).toEqual({ tasks: [] });
});

test('tasks/result on a task whose lifetime ends unfinished answers -32602 then, instead of waiting for ever', async () => {
  const record = await stored({ ttlMs: 150 });
  const started = Date.now();
  await expect(legacy.methods.result(new Call('tasks/result', { taskId: record.taskId }, 'S1'))).rejects.toMatchObject({ code: -32602 });
  expect(Date.now() - started).toBeGreaterThanOrEqual(140);
});

test('tasks/result ends with its request: a cancelled tasks/result stops waiting', async () => {
  const record = await stored();
  const controller = new AbortController();
  const waiting = legacy.methods.result(new Call('tasks/result', { taskId: record.taskId }, 'S1', undefined, undefined, controller.signal));
  controller.abort(new Error('cancelled by the client'));
  await expect(waiting).rejects.toThrow('cancelled by the client');
});
