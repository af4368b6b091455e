import 'reflect-metadata';
import { createServer, defineExtension, McpServer, Tool, type Extension } from '@decorum/core';
import { request } from '@decorum-internal/test-support';
import { BUILT_IN_EXTENSIONS, type BuiltInExtensionFactory } from '../../src/extensions/built-in.js';
import { defineBuiltInExtension } from '../../src/extensions/define-extension.js';
import { harness, quietLogger } from '../support/engine-harness.js';

const TASKS = 'io.modelcontextprotocol/tasks';

/** A stand-in for Tasks: built in, installed when a tool declares `task`, with options when listed. */
function tasksLike(settings: Record<string, unknown> = {}): Extension {
  return defineBuiltInExtension({
    id: TASKS,
    settings: settings as never,
    toolOptions: { task: (value) => value },
    methods: { 'tasks/get': { run: () => ({ status: 'working' }) } },
  });
}
const factory: BuiltInExtensionFactory = (tools) => (tools.some((tool) => tool.extensionOptions?.task !== undefined) ? tasksLike() : undefined);

@McpServer({ name: 'with-task', version: '1.0.0' })
class WithTask {
  @Tool({ input: null, task: 'optional' })
  slow() {
    return 'done';
  }
}

@McpServer({ name: 'plain', version: '1.0.0' })
class Plain {
  @Tool({ input: null })
  quick() {
    return 'done';
  }
}

describe('built-in extensions', () => {
  // The stand-in takes the real Tasks' place in the list while these tests run.
  let shipped: BuiltInExtensionFactory[] = [];
  beforeAll(() => {
    shipped = BUILT_IN_EXTENSIONS.splice(0, BUILT_IN_EXTENSIONS.length, factory);
  });
  afterAll(() => void BUILT_IN_EXTENSIONS.splice(0, BUILT_IN_EXTENSIONS.length, ...shipped));

  test('a factory installs its extension when the tools call for it (a reserved id and the tasks/ prefix allowed)', async () => {
    const { call } = harness([WithTask]);
    expect((await call(request(1, 'server/discover')))?.result.capabilities.extensions).toEqual({ [TASKS]: {} });
    expect((await call(request(2, 'tasks/get', {})))?.result.status).toBe('working');
  });

  test('and not otherwise', async () => {
    const { call } = harness([Plain]);
    expect((await call(request(1, 'server/discover')))?.result.capabilities.extensions).toBeUndefined();
  });

  test('listing the same id in extensions replaces the built-in (that is how it takes options)', async () => {
    const { call } = harness([WithTask], { extensions: [tasksLike({ configured: true })] });
    expect((await call(request(1, 'server/discover')))?.result.capabilities.extensions).toEqual({ [TASKS]: { configured: true } });
  });

  test('a third party cannot take the id or the prefix', () => {
    expect(() => defineExtension({ id: TASKS })).toThrow('reserves');
    const impostor = defineExtension({ id: 'com.example/tasks', methods: { 'tasks/get': { run: () => ({}) } } });
    expect(() => createServer([Plain], { logger: quietLogger, extensions: [impostor] })).toThrow('reserved for io.modelcontextprotocol/tasks');
  });
});
