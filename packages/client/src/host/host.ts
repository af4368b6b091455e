import type { JsonObject, PromptDescriptor, ResourceDescriptor, ToolDefinition } from '@decorum/core';
import type { CallToolOptions, ConnectOptions, McpClient, RequestOptions } from '../client.js';
import { connect } from '../connect.js';
import type { ServerLocation } from '../transports/for-location.js';
import { ClientUsageError, RequestTimeoutError, UnknownTargetError } from '../errors.js';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '../results.js';
import type { Subscription } from '../subscriptions.js';
import type { Task } from '../tasks/task.js';
import { checkApproval, type ApprovalPolicy, type Approve, type ToolCall } from './approval.js';
import { checkServerName, namespaced, splitNamespaced } from './namespacing.js';

/** A tool in the host's merged list: the server's definition under its namespaced name. */
export interface HostTool extends ToolDefinition {
  /** The host's server name. */
  readonly server: string;
  /** The server's own name for it. */
  readonly originalName: string;
}

export interface HostPrompt extends PromptDescriptor {
  readonly server: string;
  readonly originalName: string;
}

/** A resource keeps its URI (URIs are the server's); `name` is namespaced like tools. */
export interface HostResource extends ResourceDescriptor {
  readonly server: string;
  readonly originalName: string;
}

/** How one server is doing. */
export interface ServerStatus {
  readonly name: string;
  readonly state: 'connected' | 'failed' | 'closed';
  readonly era?: 'modern' | 'legacy';
  /** The last failure (a dead connection, or a list that could not be fetched in time). */
  readonly error?: Error;
  /** True from the server's acknowledgement of the host's `subscriptions/listen` for list changes (modern servers that announce them) until that subscription ends. */
  readonly watching: boolean;
}

/** A change of the task a long tool call runs as, told to the host's `onTaskStatus`. */
export interface HostTaskStatus {
  /** The host's server name. */
  readonly server: string;
  /** The tool's namespaced name (as the model called it). */
  readonly tool: string;
  /** The task as the server last described it. */
  readonly task: Task;
}

/** Options of one server in the host: the client's options, and how far the host trusts the server. */
export interface HostServerOptions extends ConnectOptions {
  /**
   * Take this server's tool annotations as true (default false). Annotations are the server's
   * own claims: only a server you trust may skip `approve` by labelling a tool `readOnlyHint`.
   */
  trustAnnotations?: boolean;
}

/** Options of {@link McpHost}. */
export interface McpHostOptions extends ConnectOptions {
  /** Asked before every call the policy flags (default policy: every call but a read-only one of a server whose annotations are trusted). */
  approve?: Approve;
  policy?: ApprovalPolicy;
  /**
   * How long lists without freshness hints (legacy servers) stay cached (default 60 s); modern
   * servers' `ttlMs` applies as given. List-changed notifications invalidate at once either way.
   */
  fallbackTtlMs?: number;
  /** Open a `subscriptions/listen` per modern server that announces list changes (default true). */
  watch?: boolean;
  /**
   * How long one server may take to list (all pages) before the merged list goes on without it,
   * with a warning (default 10 s): one hung server must not hold up every other server's list.
   */
  listTimeoutMs?: number;
  /**
   * Told each time the task a tool call runs as changes status (working, input_required, an end),
   * for every server and call: what a host shows while a long call runs. A call's own `onStatus`
   * is told too.
   */
  onTaskStatus?: (status: HostTaskStatus) => void;
}

interface Connection {
  readonly name: string;
  readonly client: McpClient;
  readonly trustAnnotations: boolean;
  watch?: Subscription;
  watching: boolean;
  error?: Error;
  closed: boolean;
}

/**
 * A host for N servers (API.md "Consuming servers"): one merged list of tools, prompts and
 * resources under reversible namespaced names (see `namespacing.ts` for the rule), calls routed
 * back to their server, `approve` consulted before every call the policy flags (a refusal never
 * reaches the server), and each server's failure kept to itself: the others keep serving.
 */
export class McpHost {
  private readonly connections = new Map<string, Connection>();

  constructor(private readonly options: McpHostOptions = {}) {}

  /**
   * Connects a server under `name` (letters, digits, `-`; no `_`). Throws if it cannot be reached.
   * Its ask handlers get `name` as `context.server`, whatever the server calls itself.
   */
  async connect(name: string, location: ServerLocation, options: HostServerOptions = {}): Promise<McpClient> {
    checkServerName(name);
    if (this.connections.has(name)) throw new ClientUsageError(`A server named ${JSON.stringify(name)} is already connected`);
    const { approve: _a, policy: _p, watch: _w, listTimeoutMs: _l, onTaskStatus: _t, fallbackTtlMs, ...clientOptions } = this.options;
    const { trustAnnotations = false, ...serverOptions } = options;
    const client = await connect(location, { cache: { fallbackTtlMs: fallbackTtlMs ?? 60_000 }, ...clientOptions, ...serverOptions, serverName: name });
    const connection: Connection = { name, client, trustAnnotations, watching: false, closed: false };
    this.connections.set(name, connection);
    client.onClose((error) => {
      connection.closed = true;
      connection.error = error;
      // A disconnect is not news; a server that went away on its own is.
      if (error && this.connections.get(name) === connection) this.warn(`Server ${name} is gone: ${error.message}; the other servers keep serving`);
    });
    if (this.options.watch !== false) this.watch(connection);
    return client;
  }

  /** Closes and forgets one server. */
  async disconnect(name: string): Promise<void> {
    const connection = this.connections.get(name);
    if (!connection) return;
    this.connections.delete(name);
    await connection.watch?.close();
    await connection.client.close();
  }

  /** The client of one server. */
  client(name: string): McpClient {
    const connection = this.connections.get(name);
    if (!connection)
      throw new UnknownTargetError(`No server named ${JSON.stringify(name)} is connected (connected: ${[...this.connections.keys()].join(', ') || 'none'})`);
    return connection.client;
  }

  /** Each server's connection state, era, and the error that closed it, if any. */
  status(): ServerStatus[] {
    return [...this.connections.values()].map((c) => ({
      name: c.name,
      state: c.closed ? (c.error ? 'failed' : 'closed') : 'connected',
      ...(!c.closed && { era: c.client.era }),
      ...(c.error && { error: c.error }),
      watching: c.watching,
    }));
  }

  /** Every server's tools, namespaced. A server that fails is left out (see {@link status}). */
  async listTools(): Promise<HostTool[]> {
    return this.merge(
      'tools/list',
      (client, options) => client.tools(options),
      (server, tool: ToolDefinition) => ({ ...tool, name: namespaced(server, tool.name), server, originalName: tool.name }),
    );
  }

  /** Every server's prompts, namespaced. A server that fails is left out. */
  async listPrompts(): Promise<HostPrompt[]> {
    return this.merge(
      'prompts/list',
      (client, options) => client.prompts(options),
      (server, prompt: PromptDescriptor) => ({ ...prompt, name: namespaced(server, prompt.name), server, originalName: prompt.name }),
    );
  }

  /** Every server's resources, namespaced. A server that fails is left out. */
  async listResources(): Promise<HostResource[]> {
    return this.merge(
      'resources/list',
      (client, options) => client.resources(options),
      (server, resource: ResourceDescriptor) => ({ ...resource, name: namespaced(server, resource.name), server, originalName: resource.name }),
    );
  }

  /**
   * Routes a call by its namespaced name to its server, after `approve` when the policy says
   * so. The tool must be one the server lists (its annotations decide the policy).
   */
  async callTool(name: string, args: JsonObject = {}, options: CallToolOptions = {}): Promise<CallToolResult> {
    const { connection, own } = this.route(name);
    const tool = await this.find(connection, own, name);
    const call: ToolCall = {
      server: connection.name,
      tool: name,
      name: own,
      arguments: args,
      annotations: tool.annotations,
      annotationsTrusted: connection.trustAnnotations,
      ...(tool.title !== undefined && { title: tool.title }),
      ...(tool.description !== undefined && { description: tool.description }),
    };
    await checkApproval(call, this.options.policy ?? 'unless-read-only', this.options.approve);
    const onTaskStatus = this.options.onTaskStatus;
    if (!onTaskStatus) return connection.client.callTool(own, args, options);
    const onStatus = (task: Task) => {
      options.onStatus?.(task);
      onTaskStatus({ server: connection.name, tool: name, task });
    };
    return connection.client.callTool(own, args, { ...options, onStatus });
  }

  /** Routes `prompts/get` by its namespaced name to its server. */
  async getPrompt(name: string, args: Record<string, string> = {}, options?: RequestOptions): Promise<GetPromptResult> {
    const { connection, own } = this.route(name);
    return connection.client.getPrompt(own, args, options);
  }

  /** Reads a resource of one server (URIs belong to their server, so the server is named). */
  async readResource(server: string, uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.client(server).readResource(uri, options);
  }

  /** Disconnects every server (errors while closing are ignored: the host is going away). */
  async close(): Promise<void> {
    await Promise.all([...this.connections.keys()].map((name) => this.disconnect(name).catch(() => {})));
  }

  private route(name: string): { connection: Connection; own: string } {
    const split = splitNamespaced(name);
    const connection = split && this.connections.get(split.server);
    if (!split || !connection)
      throw new UnknownTargetError(
        `${JSON.stringify(name)} names no connected server: namespaced names are <server>_<name> (servers: ${[...this.connections.keys()].join(', ') || 'none'})`,
      );
    return { connection, own: split.name };
  }

  private async find(connection: Connection, own: string, name: string): Promise<ToolDefinition> {
    for await (const tool of connection.client.tools()) if (tool.name === own) return tool;
    throw new UnknownTargetError(`Server ${connection.name} lists no tool ${JSON.stringify(own)} (asked for ${JSON.stringify(name)})`);
  }

  private async merge<T extends { name: string }, U>(
    method: string,
    list: (client: McpClient, options: RequestOptions) => AsyncIterable<T>,
    shape: (server: string, item: T) => U,
  ): Promise<U[]> {
    const live = [...this.connections.values()].filter((c) => !c.closed);
    const limitMs = this.options.listTimeoutMs ?? 10_000;
    const settled = await Promise.allSettled(
      live.map(async (connection) => {
        const items: U[] = [];
        const seen = new Set<string>();
        // One bound for every page of this server's list; aborting cancels the request in flight.
        const deadline = new AbortController();
        const timer = setTimeout(() => deadline.abort(new RequestTimeoutError(method, limitMs)), limitMs);
        try {
          for await (const item of list(connection.client, { signal: deadline.signal })) {
            // Names are unique per server (T-06); a repeat would make routing ambiguous.
            if (seen.has(item.name)) {
              this.warn(`Server ${connection.name} listed ${JSON.stringify(item.name)} twice; the repeat is left out`);
              continue;
            }
            seen.add(item.name);
            items.push(shape(connection.name, item));
          }
        } finally {
          clearTimeout(timer);
        }
        return items;
      }),
    );
    const merged: U[] = [];
    settled.forEach((outcome, i) => {
      const connection = live[i];
      if (outcome.status === 'fulfilled') {
        connection.error = undefined;
        merged.push(...outcome.value);
      } else if (isUnsupported(outcome.reason)) {
        // A server without this kind of primitive (-32601) simply has none.
      } else {
        connection.error = outcome.reason as Error;
        this.warn(`Server ${connection.name} could not list: ${(outcome.reason as Error).message}; left out of the merged list`);
      }
    });
    return merged;
  }

  private watch(connection: Connection): void {
    const client = connection.client;
    const caps = client.serverCapabilities;
    if (client.era !== 'modern' || !(caps.tools?.listChanged || caps.prompts?.listChanged || caps.resources?.listChanged)) return;
    // The client drops its cached lists as each notification passes; the host only keeps the stream open.
    const subscription = client.subscribe({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
    connection.watch = subscription;
    subscription.acknowledged.then(
      () => (connection.watching = true),
      () => {},
    );
    void (async () => {
      try {
        for await (const _ of subscription);
      } catch {
        // The connection is gone; onClose reports it.
      } finally {
        connection.watching = false;
      }
    })();
  }

  private warn(message: string): void {
    this.options.onWarning?.(message);
  }
}

function isUnsupported(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === -32601;
}
