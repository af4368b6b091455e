import {
  HeaderMismatchError,
  META,
  type Implementation,
  type LoggingLevel,
  type JsonObject,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type Result,
  type ServerCapabilities,
} from '@decorum/core';
import { childController } from './abort.js';
import { CACHEABLE, ResultCache } from './cache.js';
import { ClientUsageError, ConnectionClosedError, InvalidResultError, RequestTimeoutError, SessionExpiredError, peerError } from './errors.js';
import { initializeParams, viewOfInitialize } from './eras/legacy.js';
import { modernMeta } from './eras/modern.js';
import { negotiate, type EraChoice } from './eras/negotiate.js';
import { AskGate } from './ask-gate.js';
import type { AskLimits } from './ask-limits.js';
import { capabilitiesOf, type InputHandlers } from './input-handlers.js';
import { INPUT_METHODS, withInputRounds } from './input-loop.js';
import { LISTED_ITEMS, safeListed } from './listed-text.js';
import type {
  CallToolResult,
  CacheableResult,
  CompleteResult,
  CompletionReference,
  DiscoverResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  PagedResult,
  ReadResourceResult,
  ServerView,
} from './results.js';
import { Subscription, type SubscriptionFilter, type SubscriptionOptions } from './subscriptions.js';
import { followLegacyTask } from './tasks/legacy-task.js';
import { followModernTask } from './tasks/modern-task.js';
import type { TaskChannel } from './tasks/task-channel.js';
import type { TaskCallOptions } from './tasks/task-options.js';
import { servesLegacyTasks, taskParam, withTasksExtension } from './tasks/task-negotiation.js';
import { transportFor, type ServerLocation } from './transports/for-location.js';
import type { StreamLimits } from './transports/stdio.js';
import type { ClientTransport } from './transports/transport.js';
import { isJsonObject } from '@decorum/core/transport';

/** One `notifications/progress` of a request. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** Per-request options. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this request (0 = none). */
  timeoutMs?: number;
  /** Asks for progress (a `progressToken` is sent) and receives each notification. */
  onProgress?: (progress: Progress) => void;
  /** Restart the timeout on each progress notification (default false); `maxTotalTimeoutMs` still bounds it. */
  resetTimeoutOnProgress?: boolean;
  maxTotalTimeoutMs?: number;
  /** Skip the cache for this request (the fresh result is still stored). */
  fresh?: boolean;
  /** Modern servers: the log level this request asks for (its `notifications/message` go to `onLog`). */
  logLevel?: LoggingLevel;
}

/** Options of `callTool`: the request's, and how a tool that runs as a task is followed. */
export interface CallToolOptions extends RequestOptions, TaskCallOptions {}

/** Options of {@link McpClient}: the handlers of what the server may ask, the limits on those asks, and the rest. */
export interface McpClientOptions extends InputHandlers, AskLimits {
  /** Sent as `clientInfo` (default `{ name: 'decorum-client', version: '0.1.0' }`). */
  clientInfo?: Implementation;
  /** `auto` (default): modern first, then legacy; or pin one era. */
  era?: EraChoice;
  /** Default request timeout (default 60 s; 0 = none). */
  timeoutMs?: number;
  /** How long the era probe (`server/discover`) waits before trying `initialize` (default 5 s). */
  probeTimeoutMs?: number;
  /**
   * The name this client gives its server, passed to the ask handlers as `context.server` so a
   * prompt can say who asks (McpHost sets it to the host's name for the server).
   */
  serverName?: string;
  /** Caching by `ttlMs`/`cacheScope` (default on). `fallbackTtlMs` applies to results without hints (legacy; default 0). */
  cache?: boolean | { fallbackTtlMs?: number };
  /** Who is calling, added to private cache keys (default: the transport's, e.g. a digest of the bearer token). */
  principal?: string;
  /** Log notifications (`notifications/message`) of any request. */
  onLog?: (params: JsonObject) => void;
  /** Anything the client notices but does not throw for (a dropped tool, a stray notification). */
  onWarning?: (message: string) => void;
  /**
   * When the server ends a legacy HTTP session (404 to its `Mcp-Session-Id`: it expired, was
   * deleted, or the server restarted), open a new one, as 2025-11-25 requires: `initialize` again,
   * the request that met the 404 sent once more in the new session (the server did not run it),
   * subscriptions listening again there (each yields `reconnected`). Default true; false closes
   * the client with `SessionExpiredError` instead.
   */
  renewSession?: boolean;
  /**
   * Run tools as tasks when the server offers it (default true): 2026-07-28 requests declare the
   * Tasks extension (`io.modelcontextprotocol/tasks`) and `callTool` follows the tasks servers
   * answer; 2025-11-25 calls of tools that require a task send one. False declares nothing.
   */
  tasks?: boolean;
}

/** Options of `connect`: the client's, plus the transport's size limit. */
export type ConnectOptions = McpClientOptions & StreamLimits;

type Listener = (notification: JsonRpcNotification) => void;

const DEFAULT_INFO: Implementation = { name: 'decorum-client', version: '0.1.0' };

/**
 * An MCP client for one server, over any {@link ClientTransport}, in either era: it opens with
 * `server/discover` and falls back to `initialize` for legacy-only servers. Every method of the
 * server is a typed call; lists page as async iterators; `tools/call`, `prompts/get` and
 * `resources/read` run the MRTR input loop with the client's handlers; cacheable results are kept
 * by their hints and dropped at once by list-changed notifications.
 */
export class McpClient {
  private serverView: ServerView | undefined;
  private nextId = 0;
  private handshake: Promise<ServerView> | undefined;
  private closedError: Error | undefined;
  private closed = false;
  private readonly capabilities;
  private readonly clientInfo: Implementation;
  private readonly meta: JsonObject;
  /** The modern `_meta` without the Tasks extension (a call with `task: false`). */
  private readonly metaWithoutTasks: JsonObject;
  /** Legacy servers: each listed tool's `execution.taskSupport`, once `tools/list` was read. */
  private taskSupport: Map<string, string | undefined> | undefined;
  private readonly cache: ResultCache | undefined;
  private readonly asks: AskGate;
  private readonly listeners = new Set<Listener>();
  private readonly closeListeners = new Set<(error: Error | undefined) => void>();
  private readonly resumeListeners = new Set<() => void>();
  /** Told when the session's state on the server is gone (a legacy session ended, a restarted process). */
  private readonly sessionEndListeners = new Set<(error: Error) => void>();

  constructor(
    readonly transport: ClientTransport,
    private readonly options: McpClientOptions = {},
  ) {
    this.capabilities = capabilitiesOf(options);
    this.clientInfo = options.clientInfo ?? DEFAULT_INFO;
    this.metaWithoutTasks = modernMeta(this.capabilities, this.clientInfo);
    this.meta = options.tasks === false ? this.metaWithoutTasks : modernMeta(withTasksExtension(this.capabilities), this.clientInfo);
    this.asks = new AskGate(options, options, options.serverName);
    const cache = options.cache ?? true;
    this.cache = cache === false ? undefined : new ResultCache(cache === true ? 0 : (cache.fallbackTtlMs ?? 0));
  }

  /**
   * Connects to a server — `{ command, args, env }` (stdio), `{ url, headers }` (Streamable
   * HTTP) or `{ server: [ServerClass] }` (in-process) — and agrees on an era. If that fails, the
   * transport is closed again (no process is left behind) and the error thrown.
   */
  static async connect(location: ServerLocation, options: ConnectOptions = {}): Promise<McpClient> {
    const client = new McpClient(transportFor(location, options), options);
    try {
      return await client.connect();
    } catch (error) {
      await client.close().catch(() => {});
      throw error;
    }
  }

  /** Starts the transport and agrees on an era (`McpClient.connect` does it for you). */
  async connect(): Promise<this> {
    await this.transport.start({
      onNotification: (notification) => this.onNotification(notification),
      onRequest: (request) => this.onServerRequest(request),
      onClose: (error, restarting) => this.onTransportClose(error, restarting),
      onResumed: () => this.onStreamResumed(),
      onSessionEnded: (error) => this.onSessionEnded(error),
    });
    await this.open();
    return this;
  }

  /** What the server said about itself when the client connected. */
  get view(): ServerView {
    if (!this.serverView) throw new ClientUsageError('The client is not connected yet (call connect())');
    return this.serverView;
  }

  get era(): 'modern' | 'legacy' {
    return this.view.era;
  }

  get serverInfo(): Implementation | undefined {
    return this.view.serverInfo;
  }

  get serverCapabilities(): ServerCapabilities {
    return this.view.capabilities;
  }

  get instructions(): string | undefined {
    return this.view.instructions;
  }

  /** Why the connection ended, once it has (and will not restart). */
  get closedReason(): Error | undefined {
    return this.closedError;
  }

  /** Called for every change notification the client sees (legacy list-changed, listen streams). */
  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called once when the connection ends for good. */
  onClose(listener: (error: Error | undefined) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  // ----- server methods -----

  /** `server/discover` (modern servers only), uncached: the era's own view is {@link view}. */
  discover(options?: RequestOptions): Promise<DiscoverResult> {
    return this.request<DiscoverResult>('server/discover', {}, options);
  }

  /** `ping` (legacy servers; modern ones have no ping and answer -32601). */
  async ping(options?: RequestOptions): Promise<void> {
    await this.request('ping', {}, options);
  }

  /** One page of `tools/list` (cached by the server's hints; modern era). */
  listTools(params: { cursor?: string } = {}, options?: RequestOptions): Promise<ListToolsResult> {
    return this.cached('tools/list', params, options) as Promise<ListToolsResult>;
  }

  /** Every tool, page by page. */
  tools(options?: RequestOptions): AsyncIterable<ListToolsResult['tools'][number]> {
    return this.pages('tools/list', 'tools', options);
  }

  /** One page of `prompts/list`. */
  listPrompts(params: { cursor?: string } = {}, options?: RequestOptions): Promise<ListPromptsResult> {
    return this.cached('prompts/list', params, options) as Promise<ListPromptsResult>;
  }

  /** Every prompt, page by page. */
  prompts(options?: RequestOptions): AsyncIterable<ListPromptsResult['prompts'][number]> {
    return this.pages('prompts/list', 'prompts', options);
  }

  /** One page of `resources/list`. */
  listResources(params: { cursor?: string } = {}, options?: RequestOptions): Promise<ListResourcesResult> {
    return this.cached('resources/list', params, options) as Promise<ListResourcesResult>;
  }

  /** Every resource, page by page. */
  resources(options?: RequestOptions): AsyncIterable<ListResourcesResult['resources'][number]> {
    return this.pages('resources/list', 'resources', options);
  }

  /** One page of `resources/templates/list`. */
  listResourceTemplates(params: { cursor?: string } = {}, options?: RequestOptions): Promise<ListResourceTemplatesResult> {
    return this.cached('resources/templates/list', params, options) as Promise<ListResourceTemplatesResult>;
  }

  /** Every resource template, page by page. */
  resourceTemplates(options?: RequestOptions): AsyncIterable<ListResourceTemplatesResult['resourceTemplates'][number]> {
    return this.pages('resources/templates/list', 'resourceTemplates', options);
  }

  /**
   * `tools/call`, answering `input_required` rounds with the handlers. A tool the server runs as a
   * task is followed to its end in either era (see {@link CallToolOptions}): the promise settles
   * with the task's result, `onStatus` hears each change, an abort cancels the task.
   */
  async callTool(name: string, args: JsonObject = {}, options: CallToolOptions = {}): Promise<CallToolResult> {
    if (this.view.era === 'legacy') return this.callLegacyTool(name, args, options);
    const call = options.task === false && this.meta !== this.metaWithoutTasks ? { ...options, withoutTasks: true } : options;
    let result: CallToolResult;
    try {
      result = await this.withInput<CallToolResult>('tools/call', { name, arguments: args }, call);
    } catch (error) {
      // H-28: over HTTP a -32020 may come from Mcp-Param headers built from a stale schema:
      // fetch tools/list afresh (the transport rebuilds its header view) and retry once.
      if (!(error instanceof HeaderMismatchError) || this.transport.kind !== 'http' || this.view.era !== 'modern') throw error;
      this.cache?.drop('tools/list');
      for await (const _tool of this.tools({ ...options, fresh: true }));
      result = await this.withInput<CallToolResult>('tools/call', { name, arguments: args }, call);
    }
    return (result.resultType as string) === 'task' ? followModernTask(result as unknown as JsonObject, this.taskChannel(name, options)) : result;
  }

  /** `prompts/get`, answering `input_required` rounds with the handlers. */
  getPrompt(name: string, args: Record<string, string> = {}, options?: RequestOptions): Promise<GetPromptResult> {
    return this.withInput<GetPromptResult>('prompts/get', { name, arguments: args }, options);
  }

  /** `resources/read`: cached by its hints unless it took MRTR rounds. */
  readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.cached('resources/read', { uri }, options) as Promise<ReadResourceResult>;
  }

  /** `completion/complete`: suggestions for one argument of a prompt or resource template. */
  complete(
    ref: CompletionReference,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
    options?: RequestOptions,
  ): Promise<CompleteResult> {
    return this.request<CompleteResult>('completion/complete', { ref, argument, ...(context && { context }) }, options);
  }

  /** `logging/setLevel` (legacy only; modern requests carry their own log level). */
  async setLoggingLevel(level: string, options?: RequestOptions): Promise<void> {
    await this.request('logging/setLevel', { level }, options);
  }

  /**
   * Watches for changes: modern `subscriptions/listen`, legacy `resources/subscribe` plus the
   * session's list-changed notifications. Every change also invalidates the cache.
   */
  subscribe(filter: SubscriptionFilter, options?: SubscriptionOptions): Subscription {
    return new Subscription(
      {
        listen: (f, signal, onAck, onChange, onResumed) =>
          this.view.era === 'modern' ? this.listenModern(f, signal, onAck, onChange) : this.listenLegacy(f, signal, onAck, onChange, onResumed),
        gone: () => this.closed || this.closedError !== undefined,
        resumed: (watched) => this.forgetWatched(watched),
      },
      filter,
      options,
    );
  }

  /**
   * Any request, as-is (one round, no cache): the era's `_meta`, the timeout, progress, the typed
   * error of a JSON-RPC error answer. The specific methods above are built on it.
   */
  async request<T = Result>(method: string, params: JsonObject = {}, options: RequestOptions & { onNotification?: Listener } = {}): Promise<T> {
    try {
      return await this.requestOnce<T>(method, params, options);
    } catch (error) {
      // The legacy session ended under this request, which the server did not run: it goes once
      // more, in the new session (requestOnce waits for the new session's handshake).
      if (!(error instanceof SessionExpiredError) || this.options.renewSession === false || this.closed || this.closedError) throw error;
      return this.requestOnce<T>(method, params, options);
    }
  }

  private async requestOnce<T>(
    method: string,
    params: JsonObject,
    options: RequestOptions & { onNotification?: Listener; withoutTasks?: boolean },
  ): Promise<T> {
    if (this.closedError || this.closed) throw this.closedError ?? new ConnectionClosedError('The client was closed');
    if (this.handshake && method !== 'initialize' && method !== 'server/discover' && method !== 'notifications/initialized') await this.handshake;
    const view = this.serverView;
    // `initialize` opens a legacy session before the era is known: no modern `_meta` (a Decorum
    // server would take it for a modern request and refuse it).
    const legacy = method === 'initialize' || (view?.era === 'legacy' && method !== 'server/discover');
    const id = ++this.nextId;
    const progressToken = options.onProgress ? `p${id}` : undefined;
    const meta: JsonObject | undefined = legacy
      ? progressToken
        ? { progressToken }
        : undefined
      : {
          ...(options.withoutTasks ? this.metaWithoutTasks : this.meta),
          ...(progressToken && { progressToken }),
          ...(options.logLevel && { [META.logLevel]: options.logLevel }),
        };
    const request: JsonRpcRequest = { jsonrpc: '2.0', id, method, params: meta ? { ...params, _meta: meta } : params };

    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? 60_000;
    const { controller: timer, release } = childController(options.signal);
    const started = Date.now();
    let handle: NodeJS.Timeout | undefined;
    const arm = (ms: number) => {
      clearTimeout(handle);
      if (ms > 0) handle = setTimeout(() => timer.abort(new RequestTimeoutError(method, timeoutMs)), ms);
    };
    arm(timeoutMs);
    const signal = timer.signal;
    try {
      const response = await this.transport.request(request, {
        signal,
        progressToken,
        onNotification: (notification) => {
          if (notification.method === 'notifications/progress' && options.onProgress) {
            const { progress, total, message } = (notification.params ?? {}) as unknown as Progress;
            if (options.resetTimeoutOnProgress && timeoutMs > 0) arm(Math.min(timeoutMs, (options.maxTotalTimeoutMs ?? Infinity) - (Date.now() - started)));
            options.onProgress({ progress, ...(total !== undefined && { total }), ...(message !== undefined && { message }) });
          } else if (options.onNotification) options.onNotification(notification);
          // Log lines, and legacy servers' list changes sent on a request's stream, are the client's.
          else this.onNotification(notification);
        },
      });
      if ('error' in response) throw peerError(response.error);
      const result = response.result as Result | undefined;
      if (!isJsonObject(result)) throw new InvalidResultError(`${method} answered with a result that is not an object`);
      // Legacy results have no resultType (B-09: absent = complete); unknown values are invalid.
      if (result.resultType === undefined) return { ...result, resultType: 'complete' } as T;
      if (
        result.resultType !== 'complete' &&
        !(result.resultType === 'input_required' && INPUT_METHODS.has(method) && !legacy) &&
        !this.taskAnswer(method, result, options.withoutTasks)
      ) {
        throw new InvalidResultError(`${method} answered with resultType ${JSON.stringify(result.resultType)}, which this client does not know`);
      }
      return result as T;
    } finally {
      clearTimeout(handle);
      release();
    }
  }

  /** Ends the connection (stdio: EOF, then signals; HTTP: open streams closed). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.transport.close();
  }

  // ----- internals -----

  /** A modern `tools/call` may answer a task (`resultType: "task"`) when this request declared the Tasks extension. */
  private taskAnswer(method: string, result: Result, withoutTasks: boolean | undefined): boolean {
    return result.resultType === 'task' && method === 'tools/call' && !withoutTasks && this.meta !== this.metaWithoutTasks;
  }

  /** A 2025-11-25 `tools/call`: with `task` when the tool requires one (or allows one and the caller asks), then followed. */
  private async callLegacyTool(name: string, args: JsonObject, options: CallToolOptions): Promise<CallToolResult> {
    const support = options.task === false || this.options.tasks === false ? undefined : await this.legacyTaskSupport(name);
    const task = taskParam(support, options.task);
    const result = await this.request<CallToolResult>('tools/call', { name, arguments: args, ...(task && { task }) }, options);
    return task && 'task' in result ? followLegacyTask(result as unknown as JsonObject, this.taskChannel(name, options)) : result;
  }

  /** A legacy tool's `execution.taskSupport`, from `tools/list` (read once, when the server serves tasks). */
  private async legacyTaskSupport(name: string): Promise<string | undefined> {
    if (!servesLegacyTasks(this.view.capabilities)) return undefined;
    if (!this.taskSupport?.has(name)) for await (const _tool of this.tools({ fresh: true }));
    return this.taskSupport?.get(name);
  }

  /** What following one call's task needs from the client. */
  private taskChannel(tool: string, options: CallToolOptions): TaskChannel {
    return {
      tool,
      options,
      asks: this.asks,
      request: (method, params, signal, timeoutMs) => this.request<JsonObject>(method, params, { signal, timeoutMs: timeoutMs ?? options.timeoutMs }),
    };
  }

  /** Agrees on an era: `choice` is the client's own, or `legacy` to open a new session of a legacy server. */
  private open(choice: EraChoice = this.options.era ?? 'auto'): Promise<ServerView> {
    const probeTimeoutMs = this.options.probeTimeoutMs ?? 5000;
    const handshake = negotiate(choice, {
      discover: () => this.request<DiscoverResult>('server/discover', {}, { timeoutMs: probeTimeoutMs }),
      initialize: async () => {
        const result = await this.request<JsonObject>('initialize', initializeParams(this.capabilities, this.clientInfo));
        const view = viewOfInitialize(result);
        this.serverView = view;
        this.transport.setEra(view);
        await this.transport.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
        return view;
      },
    }).then((view) => {
      this.serverView = view;
      this.transport.setEra(view);
      return view;
    });
    this.handshake = handshake;
    return handshake.finally(() => {
      if (this.handshake === handshake) this.handshake = undefined;
    });
  }

  private async withInput<T>(method: string, params: JsonObject, options?: RequestOptions): Promise<T> {
    if (this.view.era === 'legacy') return this.request<T>(method, params, options);
    const { result, retried } = await withInputRounds(method, params, (round) => this.request(method, round, options), this.asks);
    return (retried ? Object.defineProperty(result, 'retried', { value: true, enumerable: false }) : result) as T;
  }

  private async cached(method: string, params: JsonObject, options?: RequestOptions): Promise<CacheableResult> {
    const principal = this.options.principal ?? this.transport.principal();
    if (this.cache && !options?.fresh) {
      const hit = this.cache.get(method, params, principal);
      if (hit) return hit;
    }
    const result =
      method === 'resources/read'
        ? await this.withInput<CacheableResult & { retried?: boolean }>(method, params, options)
        : await this.request<CacheableResult & { retried?: boolean }>(method, params, options);
    const items = LISTED_ITEMS.get(method);
    const page = result as unknown as Record<string, unknown>;
    if (items && Array.isArray(page[items])) page[items] = safeListed(page[items] as unknown[], (name) => this.droppedListed(method, name));
    if (method === 'tools/list' && this.serverView?.era === 'legacy') this.noteTaskSupport(page.tools as ListToolsResult['tools']);
    if (this.cache && CACHEABLE.has(method) && !result.retried) this.cache.set(method, params, principal, result);
    return result;
  }

  /** Remembers what each listed legacy tool says of tasks (`execution.taskSupport`). */
  private noteTaskSupport(tools: ListToolsResult['tools']): void {
    this.taskSupport ??= new Map();
    for (const tool of tools) {
      const support = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
      this.taskSupport.set(tool.name, typeof support === 'string' ? support : undefined);
    }
  }

  private droppedListed(method: string, quotedName: string): void {
    const kind = LISTED_ITEMS.get(method)!.replace(/s$/, '').replace('resourceTemplate', 'resource template');
    const server = this.options.serverName === undefined ? 'The server' : `Server ${this.options.serverName}`;
    this.options.onWarning?.(`${server} listed a ${kind} whose name holds control characters (${quotedName}); it is left out`);
  }

  private async *pages<T>(method: string, key: string, options?: RequestOptions): AsyncGenerator<T> {
    let cursor: string | undefined;
    const seen = new Set<string>();
    do {
      const page = (await this.cached(method, cursor === undefined ? {} : { cursor }, options)) as PagedResult & Record<string, T[]>;
      if (!Array.isArray(page[key])) throw new InvalidResultError(`${method} answered without a ${key} array`);
      yield* page[key];
      cursor = page.nextCursor;
      // A server that hands back a cursor it already gave would page forever.
      if (cursor !== undefined) {
        if (seen.has(cursor)) throw new InvalidResultError(`${method} repeated the cursor ${JSON.stringify(cursor)}`);
        seen.add(cursor);
      }
    } while (cursor !== undefined);
  }

  private async listenModern(filter: SubscriptionFilter, signal: AbortSignal, onAck: (f: SubscriptionFilter) => void, onChange: Listener): Promise<void> {
    await this.request(
      'subscriptions/listen',
      { notifications: filter as JsonObject },
      {
        signal,
        timeoutMs: 0,
        onNotification: (notification) => {
          if (notification.method === 'notifications/subscriptions/acknowledged')
            onAck(((notification.params ?? {}) as { notifications?: SubscriptionFilter }).notifications ?? {});
          else {
            this.noteChange(notification);
            onChange(notification);
          }
        },
      },
    );
  }

  private async listenLegacy(
    filter: SubscriptionFilter,
    signal: AbortSignal,
    onAck: (f: SubscriptionFilter) => void,
    onChange: Listener,
    onResumed: () => void,
  ): Promise<void> {
    const capabilities = this.view.capabilities;
    const uris = capabilities.resources?.subscribe ? (filter.resourceSubscriptions ?? []) : [];
    for (const uri of uris) await this.request('resources/subscribe', { uri }, { signal });
    onAck({
      ...(filter.toolsListChanged && capabilities.tools?.listChanged && { toolsListChanged: true }),
      ...(filter.promptsListChanged && capabilities.prompts?.listChanged && { promptsListChanged: true }),
      ...(filter.resourcesListChanged && capabilities.resources?.listChanged && { resourcesListChanged: true }),
      ...(uris.length > 0 && { resourceSubscriptions: uris }),
    });
    const off = this.onChange(onChange);
    this.resumeListeners.add(onResumed);
    let offClose: (() => void) | undefined;
    let sessionEnded: ((error: Error) => void) | undefined;
    let inEndedSession = false;
    try {
      await new Promise<void>((resolve, reject) => {
        if (signal.aborted) return resolve();
        signal.addEventListener('abort', () => resolve(), { once: true });
        offClose = this.onClose((error) => reject(error ?? new ConnectionClosedError('The connection closed')));
        // The session is gone with its subscriptions: the subscription listens again in the next one.
        sessionEnded = (error) => {
          inEndedSession = true;
          reject(error);
        };
        this.sessionEndListeners.add(sessionEnded);
      });
    } finally {
      off();
      offClose?.();
      if (sessionEnded) this.sessionEndListeners.delete(sessionEnded);
      this.resumeListeners.delete(onResumed);
      // Nothing to undo in a session that ended (the new one has none of these subscriptions).
      if (!this.closed && !this.closedError && !inEndedSession) for (const uri of uris) await this.request('resources/unsubscribe', { uri }).catch(() => {});
    }
  }

  /** Changes to what `filter` watches may have passed unseen (a listen stream dropped): its cached results go. */
  private forgetWatched(filter: SubscriptionFilter): void {
    const cache = this.cache;
    if (!cache) return;
    if (filter.toolsListChanged) cache.invalidate({ method: 'notifications/tools/list_changed' });
    if (filter.promptsListChanged) cache.invalidate({ method: 'notifications/prompts/list_changed' });
    if (filter.resourcesListChanged) cache.invalidate({ method: 'notifications/resources/list_changed' });
    for (const uri of filter.resourceSubscriptions ?? []) cache.invalidate({ method: 'notifications/resources/updated', params: { uri } });
  }

  /**
   * The legacy session's GET stream is back after a drop: any list change it carried meanwhile may
   * be lost, so the cached lists go, and each subscription says `reconnected` (and drops what it watches).
   */
  private onStreamResumed(): void {
    this.forgetWatched({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
    for (const listener of this.resumeListeners) listener();
  }

  private noteChange(notification: JsonRpcNotification): void {
    this.cache?.invalidate(notification as { method: string; params?: JsonObject });
    for (const listener of this.listeners) listener(notification);
  }

  private onNotification(notification: JsonRpcNotification): void {
    if (notification.method === 'notifications/message') this.options.onLog?.(notification.params ?? {});
    else if (notification.method.endsWith('/list_changed') || notification.method === 'notifications/resources/updated') this.noteChange(notification);
  }

  private onServerRequest(request: JsonRpcRequest): Promise<unknown> {
    return this.asks.answerRequest(request);
  }

  /**
   * The server forgot what it held for this client (a restarted process, an ended legacy session):
   * the cached results go, the era is agreed again (`choice`; the client's own when undefined) while
   * requests wait for it, and legacy listens end with `reason`, to listen again. `onFailure` gets
   * the error when no new agreement is reached.
   */
  private startOver(choice: EraChoice | undefined, reason: Error, onFailure: (error: unknown) => void): void {
    this.cache?.drop();
    this.open(choice).catch(onFailure);
    for (const listener of this.sessionEndListeners) listener(reason);
  }

  /**
   * The server ended the legacy session (HTTP 404): a new one is opened (see `renewSession`) —
   * the cached results go, requests wait for the new `initialize`, subscriptions listen again —
   * or the client closes with `error`, also when the new session cannot be opened.
   */
  private onSessionEnded(error: Error): void {
    if (this.options.renewSession === false || this.closed) return this.onTransportClose(error, false);
    this.startOver('legacy', error, (failure) => this.onTransportClose(failure instanceof Error ? failure : error, false));
  }

  private onTransportClose(error: Error | undefined, restarting: boolean): void {
    // A new process knows nothing of us: the era is agreed again before the next request.
    if (restarting) return this.startOver(undefined, error ?? new ConnectionClosedError('The server restarted'), () => {});
    this.cache?.drop();
    this.closedError = error ?? new ConnectionClosedError('The client was closed');
    for (const listener of this.closeListeners) listener(error);
  }
}
