/**
 * Where the messages of this instance's legacy tasks go (L§Input Required Status): the stream of a
 * pending `tasks/result` for the task if there is one — the client is waiting there — else the
 * session's own outlet (stdout, the HTTP GET stream). Status changes go out the same way as
 * `notifications/tasks/status` (L§Task Notifications; optional, so best-effort).
 */
import type { ClientRequestOutlet } from '../../../asks/session/client-requests.js';
import type { JsonRpcNotification, JsonRpcRequest } from '../../../protocol/types.js';
import { TERMINAL_STATUSES, type TaskStore } from '../task-store.js';
import { legacyTask } from './legacy-task-shapes.js';

interface TaskOutlets {
  /** The session that created the task. */
  readonly session: ClientRequestOutlet;
  /** Streams of pending `tasks/result` requests, newest last. */
  readonly waiting: ClientRequestOutlet[];
}

/** The outlets of the legacy tasks this instance runs, and their status notifications. */
export class LegacyTaskOutlets {
  private readonly tasks = new Map<string, TaskOutlets>();
  private readonly unwatch: () => void;

  constructor(store: TaskStore) {
    this.unwatch = store.watch((event) => {
      if (event.type !== 'changed') return;
      const { record } = event;
      if (!this.tasks.has(record.taskId)) return;
      this.send(record.taskId, { jsonrpc: '2.0', method: 'notifications/tasks/status', params: legacyTask(record) });
      if (TERMINAL_STATUSES.has(record.status)) this.tasks.delete(record.taskId);
    });
  }

  /** A task created on a session whose outlet is `session`: its messages go there until it ends. */
  open(taskId: string, session: ClientRequestOutlet): void {
    this.tasks.set(taskId, { session, waiting: [] });
  }

  /** A `tasks/result` for `taskId` waits on `stream`: the task's messages go there until `release`. */
  hold(taskId: string, stream: ClientRequestOutlet): () => void {
    const outlets = this.tasks.get(taskId);
    if (!outlets) return () => undefined;
    outlets.waiting.push(stream);
    return () => {
      const at = outlets.waiting.lastIndexOf(stream);
      if (at >= 0) outlets.waiting.splice(at, 1);
    };
  }

  /** Sends `message` for `taskId` where its client listens (dropped once the task ended here). */
  send(taskId: string, message: JsonRpcRequest | JsonRpcNotification): void {
    const outlets = this.tasks.get(taskId);
    if (outlets) (outlets.waiting.at(-1) ?? outlets.session)(message);
  }

  close(): void {
    this.unwatch();
    this.tasks.clear();
  }
}
