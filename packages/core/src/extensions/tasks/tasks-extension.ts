/**
 * The Tasks extension (`io.modelcontextprotocol/tasks`, settings `{}`), built on the public
 * extension API: `@Tool({ task })` checked at start-up, the `tasks/*` methods, and the step around
 * `tools/call` of task tools. Built in: `createServer` installs it when a tool declares `task` or
 * `taskStore` is given; listing `tasks({ … })` in `extensions` passes options.
 */
import type { ToolEntry } from '../../registry/entries.js';
import { TASKS_EXTENSION_ID } from '../core-methods.js';
import { defineBuiltInExtension } from '../define-extension.js';
import type { Extension } from '../extension.js';
import { toolOption } from '../tool-options.js';
import { MemoryTaskStore } from './memory-task-store.js';
import { taskAround } from './task-call.js';
import { TASK_NOTIFICATION, taskListen } from './task-listen.js';
import { taskMethods } from './task-methods.js';
import { checkTaskOption, type TaskSupport } from './task-option.js';
import type { TaskRecord, TaskStore } from './task-store.js';
import { TaskLeases } from './task-leases.js';
import { TaskRunner } from './task-runner.js';
import { taskSettings, type TasksOptions } from './task-settings.js';
import { detailedTask } from './task-shapes.js';
import { withLegacyTaskMethods } from './legacy/legacy-task-extension-methods.js';
import { legacyTaskCapabilities, legacyTaskToolFields } from './legacy/legacy-task-negotiation.js';
import { closeLegacyTasks } from './legacy/legacy-tasks.js';

/** The Tasks extension with these options (give it in `createServer`'s `extensions` to set them). */
export function tasks(options: TasksOptions = {}): Extension {
  const settings = taskSettings(options);
  const supportOf = (tool: ToolEntry): TaskSupport | undefined => toolOption<TaskSupport>(tool, 'task');
  let runner: TaskRunner | undefined;
  const running = (): TaskRunner => {
    if (!runner) throw new Error('the Tasks extension is not installed');
    return runner;
  };
  return defineBuiltInExtension({
    id: TASKS_EXTENSION_ID,
    settings: {},
    eras: 'modern',
    toolOptions: { task: (value, toolName) => checkTaskOption(value, toolName, settings) },
    methods: withLegacyTaskMethods(taskMethods(running), () => running().store),
    legacyCapabilities: legacyTaskCapabilities,
    legacyToolFields: (tool, version) => legacyTaskToolFields(supportOf(tool)?.support, version),
    around: { 'tools/call': taskAround(running, supportOf) },
    listen: taskListen(running),
    install(host) {
      // A bus spanning instances offers its shared store (Redis); it closes that store itself.
      const shared = options.store === undefined ? host.bus.taskStore : undefined;
      const store = options.store ?? shared ?? new MemoryTaskStore();
      const logger = host.logger.child({ extension: TASKS_EXTENSION_ID });
      // A parked resumable task outlives its instance: the instance its answer reaches replays it.
      const spare = (record: TaskRecord) => record.call !== undefined && record.status === 'input_required';
      // A lease lost to another instance (it replays the task): the handler here stops, its writes dropped.
      const onLost = (taskId: string) => runner?.lost(taskId);
      const leases = new TaskLeases({ store, instance: host.instanceId, leaseMs: settings.leaseMs, logger, spare, onLost });
      runner = new TaskRunner(
        store,
        settings,
        logger,
        host.journalLimitBytes,
        (record) => host.publish(TASK_NOTIFICATION, record.taskId, detailedTask(record)),
        leases,
      );
      const installed = runner;
      return {
        async close() {
          await installed.close();
          closeLegacyTasks(store);
          await leases.close();
          if (store !== shared) await store.close();
        },
      };
    },
  });
}

/** The built-in factory: Tasks when a tool declares `task` or the server has a `taskStore`. */
export function builtInTasks(tools: readonly ToolEntry[], options: Readonly<Record<string, unknown>>): Extension | undefined {
  const store = options.taskStore as TaskStore | undefined;
  if (store === undefined && !tools.some((tool) => tool.extensionOptions?.task !== undefined)) return undefined;
  return tasks({ store });
}
