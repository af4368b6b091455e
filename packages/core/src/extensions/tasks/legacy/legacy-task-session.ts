/**
 * One legacy task's side of its session: the handler's `ctx.elicit`/`sample`/`roots` become real
 * server→client requests carrying the related-task `_meta`, sent where the client listens
 * (legacy-task-outlets.ts), with the task `input_required` while one is out (L§Input Required
 * Status); `ctx.progress` keeps the call's `progressToken` (L§Task Progress Notifications). The
 * asks themselves are the session's (`asks/session/session-asks.ts`), unchanged.
 */
import type { AskingSession, SessionAskSeam } from '../../../asks/session/session-asks.js';
import type { ClientRequestOutlet } from '../../../asks/session/client-requests.js';
import type { ClientCapabilities, JsonObject } from '../../../protocol/types.js';
import type { TaskStore } from '../task-store.js';
import type { LegacyTaskOutlets } from './legacy-task-outlets.js';
import { withRelatedTask } from './legacy-task-shapes.js';

/** The session a legacy task's asks go to, seen through the task. */
export class LegacyTaskSession implements AskingSession {
  /** Asks out now: the task is `input_required` while there is one. */
  private asking = 0;
  private lastProgress = Number.NEGATIVE_INFINITY;
  readonly outlet: ClientRequestOutlet = (message) => this.outlets.send(this.taskId, message);
  readonly requests: AskingSession['requests'] = { request: (method, params, _outlet, signal) => this.ask(method, params, signal) };

  constructor(
    private readonly seam: SessionAskSeam,
    private readonly taskId: string,
    private readonly store: TaskStore,
    private readonly outlets: LegacyTaskOutlets,
    private readonly progressToken: string | number | undefined,
  ) {}

  get protocolVersion(): string {
    return this.seam.session.protocolVersion;
  }

  get clientCapabilities(): ClientCapabilities {
    return this.seam.session.clientCapabilities;
  }

  private async ask(method: string, params: JsonObject | undefined, signal: AbortSignal | undefined): Promise<JsonObject> {
    const sent: JsonObject = { ...params, _meta: withRelatedTask(params?._meta, this.taskId) };
    if (++this.asking === 1) await this.store.transition(this.taskId, { status: 'input_required' }, { statuses: ['working'] });
    try {
      return await this.seam.session.requests.request(method, sent, this.outlet, signal);
    } finally {
      if (--this.asking === 0) await this.store.transition(this.taskId, { status: 'working' }, { statuses: ['input_required'] });
    }
  }

  /** `ctx.progress` of the task: `notifications/progress` for the call's token, increasing only. */
  progress(progress: number, total?: number, message?: string): void {
    if (this.progressToken === undefined || !(progress > this.lastProgress)) return;
    this.lastProgress = progress;
    const params: JsonObject = { progressToken: this.progressToken, progress, _meta: withRelatedTask(undefined, this.taskId) };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    this.outlet({ jsonrpc: '2.0', method: 'notifications/progress', params });
  }

  /** A request-scoped notification of the task's handler (`ctx.log` forwarding), tied to the task. */
  notify(method: string, params: JsonObject): void {
    this.outlet({ jsonrpc: '2.0', method, params: { ...params, _meta: withRelatedTask(params._meta, this.taskId) } });
  }
}
