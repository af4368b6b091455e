/**
 * The public extension API (issue #50): an extension is one value — its id, the settings it
 * advertises, the methods it adds, and the middleware it hangs on the pipeline. `createServer`
 * installs a list of them (`extensions:`); Tasks, Apps and Skills are built on exactly this.
 *
 * THIS FILE IS THE CONTRACT the parts of #50 build against. Its names may grow; they are not
 * renamed without the lead.
 */
import type { Logger } from 'pino';
import type { JsonObject, JsonRpcNotification, Result } from '../protocol/types.js';
import type { StoredToolCall } from './stored-tool-call.js';

export type { StoredToolCall } from './stored-tool-call.js';
import type { Middleware, CallResult } from '../pipeline/middleware.js';
import type { PipelineCall } from '../pipeline/call.js';
import type { AskSeam } from '../asks/handler-asks.js';
import type { ToolEntry } from '../registry/entries.js';
import type { NotificationBus } from '../live/notification-bus.js';

/** Which protocol eras a piece of an extension exists in. */
export type ExtensionEras = 'both' | 'modern' | 'legacy';

/**
 * One request to an extension's own method, as its handler sees it: everything middleware sees
 * (the caller, `ctx`, `meta`), the params validated against the method's schema, and where
 * request-scoped notifications go.
 */
export interface ExtensionRequest<Params = JsonObject> extends PipelineCall {
  /** The params after validation (`params` itself stays the raw object sent). */
  readonly input: Params;
  /** The extensions this request's client declared (`capabilities.extensions`; `{}` when none). */
  readonly clientExtensions: Readonly<Record<string, JsonObject>>;
  /** A request-scoped notification (dropped once the request has answered). */
  notify(method: string, params: JsonObject): void;
  readonly log: Logger;
  readonly signal: AbortSignal;
  /** How the request's asks would be answered: on a legacy session its seam (the request's stream); `undefined` on 2026-07-28. */
  readonly asks?: AskSeam | undefined;
  /**
   * Runs a tool call kept from an earlier request (Tasks: a parked task replayed on another
   * instance) on a call derived from this one: the tool's class and member `@Use` and its method,
   * with the stored arguments and client capabilities. Not the server's guards and middleware:
   * they ran on the original call. Unknown tool: -32602, as `tools/call` would answer.
   */
  runTool(stored: StoredToolCall, derived: DerivedCallOptions): Promise<CallResult>;
}

/** A request method an extension adds. */
export interface ExtensionMethod<Params = JsonObject> {
  /** The params' schema (DTO class, TypeBox, Standard Schema); invalid params are -32602 naming each issue. */
  readonly params?: Function | object;
  /** Where the method exists (default: the extension's `eras`); elsewhere it is -32601. */
  readonly eras?: ExtensionEras;
  /**
   * Refuse with -32021 (naming `requiredCapabilities.extensions[id]`) when the request's client did
   * not declare the extension — before the params are read. Modern era only (legacy has no -32021).
   */
  readonly requiresClientExtension?: boolean;
  /** The param whose value HTTP's `Mcp-Name` header must carry (e.g. `taskId`). */
  readonly nameParam?: string;
  /** Answers the request: its result, or a typed error thrown. */
  run(request: ExtensionRequest<Params>): Result | Promise<Result>;
}

/** A client→server notification an extension handles (errors are logged, never answered). */
export interface ExtensionNotification {
  readonly eras?: ExtensionEras;
  /** Handles one notification (nothing is answered). */
  run(params: JsonObject, from: { readonly log: Logger; readonly sessionId: string | undefined }): void | Promise<void>;
}

/** How a wrapped call differs from the one it wraps (see {@link Around}). */
export interface DerivedCallOptions {
  /** Replaces the request's cancellation (a task's own abort). */
  readonly signal?: AbortSignal;
  /** Replaces how the handler's `ctx.elicit`/`sample`/`roots`/`once` are answered. */
  readonly asks?: AskSeam;
  /** Replaces `ctx.progress`. */
  readonly progress?: (progress: number, total?: number, message?: string) => void;
  /** Replaces request-scoped notifications (`ctx.log` forwarding included); default: dropped. */
  readonly notify?: (method: string, params: JsonObject) => void;
  /** Values the extension reads back with `extensionData(ctx, key)` inside the handler. */
  readonly data?: ReadonlyMap<symbol, unknown>;
}

/**
 * A step around one core method's target (Tasks wraps `tools/call` of task tools). It runs after
 * all middleware of the server and of the extensions, before the class's and member's `@Use`.
 * `proceed` runs the rest (the `@Use` chain and the method) — at once, later, or detached on a
 * call that outlives the request (`DerivedCallOptions`).
 */
export interface Around {
  /** Whether the step wraps this tool (decided once per entry). */
  applies(tool: ToolEntry): boolean;
  /** Runs the step; `proceed` runs the rest of the chain, on this call or a derived one. */
  run(call: PipelineCall, proceed: (derived?: DerivedCallOptions) => Promise<CallResult>): Promise<CallResult> | CallResult;
}

/** What an extension's `install` gets: the server's services. */
export interface ExtensionHost {
  readonly logger: Logger;
  /** The server's notification bus (in-process, or one spanning instances). */
  readonly bus: NotificationBus;
  /** This process's id among instances (logs, leases). */
  readonly instanceId: string;
  /** The server's bound of a `ctx.once` journal in bytes (`mrtr.journalLimitBytes`), for an extension that journals handler work. */
  readonly journalLimitBytes: number;
  /** Sends an event to `subscriptions/listen` streams that asked for it (see {@link ExtensionListen}). */
  publish(method: string, key: string, params: JsonObject): void;
}

/** What `install` returns: how to release what it made (timers, connections). */
export interface InstalledExtension {
  /** Releases what `install` made; called once, at the server's close. */
  close(): void | Promise<void>;
}

/** A filter an extension adds to `subscriptions/listen` (Tasks: `notifications.taskIds`). */
export interface ExtensionListen {
  /** The field under the listen request's `notifications` (e.g. `taskIds`). */
  readonly field: string;
  /** The notification method its events go out as (e.g. `notifications/tasks`). */
  readonly method: string;
  /** The keys this caller may follow, of those it asked for (may throw a typed error). */
  grant(requested: unknown, call: PipelineCall): readonly string[] | Promise<readonly string[]>;
}

/** The options a tool may carry for an extension (`@Tool({ task })`): checked at start-up. */
export type ToolOptionCheck = (value: unknown, toolName: string) => unknown;

/** An extension: give it to `createServer(classes, { extensions: [...] })`. */
export interface Extension {
  /** `_meta`-style id: a reverse-DNS prefix, a slash, a name (`com.example/echo`). Unique per server. */
  readonly id: string;
  /** Advertised under `capabilities.extensions[id]` (`server/discover`, legacy `initialize`). */
  readonly settings?: JsonObject;
  /** Where the extension exists (default `both`). */
  readonly eras?: ExtensionEras;
  /** Extra legacy `initialize` capabilities for a negotiated revision (Tasks: `capabilities.tasks`), whatever `eras` says. */
  readonly legacyCapabilities?: (protocolVersion: string) => JsonObject | undefined;
  /** Request methods by name; each one's params are its own type (checked by its `params` schema at run time). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- methods of one extension have different params types; `any` lets each `run` read its own
  readonly methods?: Readonly<Record<string, ExtensionMethod<any>>>;
  readonly notifications?: Readonly<Record<string, ExtensionNotification>>;
  /** Middleware on every request (core and custom methods), after the server's, in list order. */
  readonly middleware?: readonly Middleware[];
  /** Steps around a core method's target; only `tools/call` today. */
  readonly around?: Readonly<Partial<Record<'tools/call', Around>>>;
  /** Outbound notifications of every request pass through here (return `undefined` to drop one). */
  readonly outbound?: (notification: JsonRpcNotification, call: PipelineCall) => JsonRpcNotification | undefined;
  /** Checks a `@Tool` option of this extension's (key → check); the check's return is what `toolOption` reads. */
  readonly toolOptions?: Readonly<Record<string, ToolOptionCheck>>;
  /** Extra fields of a tool's legacy `tools/list` item for a revision (Tasks: `execution.taskSupport`), whatever `eras` says. */
  readonly legacyToolFields?: (tool: ToolEntry, protocolVersion: string) => JsonObject | undefined;
  readonly listen?: ExtensionListen;
  /** Runs once at `createServer`, in list order; a throw uninstalls the ones before it. */
  install?(host: ExtensionHost): InstalledExtension | void;
}
