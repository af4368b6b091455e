import type { Logger } from 'pino';
import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';
import { inEra, type MethodHandler, type ServedExtensions } from '../methods/method.js';
import type { Middleware } from '../pipeline/middleware.js';
import type { PipelineCall } from '../pipeline/call.js';
import type { PipelineExtensions } from '../pipeline/pipeline.js';
import { DerivedCall } from './derived-call.js';
import type { JsonObject, JsonRpcNotification } from '../protocol/types.js';
import type { ToolEntry } from '../registry/entries.js';
import { CORE_NOTIFICATIONS, CORE_REQUESTS, RESERVED_PREFIXES, TASKS_EXTENSION_ID } from './core-methods.js';
import { isBuiltIn } from './define-extension.js';
import { extensionMethod } from './extension-method.js';
import { recordToolOptions } from './tool-options.js';
import type { Around, DerivedCallOptions, Extension, ExtensionHost, ExtensionListen, ExtensionNotification, InstalledExtension } from './extension.js';

/** A client notification an extension handles, with its owner. */
interface RoutedNotification {
  readonly ext: Extension;
  readonly handler: ExtensionNotification;
}

/** The core fields of a listen's `notifications` (an extension adds its own beside them). */
const BOOLEAN_OR_CORE_FIELDS: ReadonlySet<string> = new Set(['toolsListChanged', 'promptsListChanged', 'resourcesListChanged', 'resourceSubscriptions']);

function refuse(code: StartupErrorCode, message: string): never {
  throw new DecorumStartupError(code, message);
}

/**
 * A server's extensions, checked together before anything is built: unique ids, method and
 * notification names that clash with no core method, no other extension's and no reserved
 * prefix, unique listen fields and tool-option keys. It then holds what the engine, the pipeline
 * and the capabilities read of them, computed once; `install` runs each `install` in order and
 * `close` undoes them in reverse.
 */
export class ExtensionSet implements ServedExtensions, PipelineExtensions {
  /** The extension methods, wrapped for the engine's method map. */
  readonly methods: readonly MethodHandler[];
  /** Every extension's middleware, in `extensions` order. */
  readonly middleware: readonly Middleware[];
  /** The `around` steps of `tools/call`, in `extensions` order. */
  readonly toolsCallAround: readonly Around[];
  /** Outbound notifications pass through this (absent when no extension has `outbound`). */
  readonly outbound: ((notification: JsonRpcNotification, call: PipelineCall) => JsonRpcNotification | undefined) | undefined;
  /** Listen filters by their field under `notifications`. */
  readonly listens: ReadonlyMap<string, ExtensionListen>;
  private readonly notifications = new Map<string, RoutedNotification>();
  private readonly toolOptionChecks = new Map<string, Extension>();
  private readonly modernSettings: Readonly<Record<string, JsonObject>> | undefined;
  private readonly legacySettings: Readonly<Record<string, JsonObject>> | undefined;
  private installed: InstalledExtension[] = [];

  constructor(readonly list: readonly Extension[]) {
    const ids = new Set<string>();
    const owners = new Map<string, string>();
    const listens = new Map<string, ExtensionListen>();
    const listenOwners = new Map<string, string>();
    for (const ext of list) {
      if (typeof ext !== 'object' || ext === null || typeof ext.id !== 'string' || !Object.isFrozen(ext))
        refuse(StartupErrorCode.INVALID_EXTENSION, 'every entry of extensions must be made with defineExtension()');
      if (ids.has(ext.id)) refuse(StartupErrorCode.DUPLICATE_EXTENSION, `extension "${ext.id}" is listed twice in extensions`);
      ids.add(ext.id);
      const names = [...Object.keys(ext.methods ?? {}), ...Object.keys(ext.notifications ?? {})];
      for (const name of names) this.claim(ext, name, owners);
      if (ext.listen) {
        const other = listenOwners.get(ext.listen.field);
        if (other) refuse(StartupErrorCode.EXTENSION_METHOD_CLASH, `extensions "${other}" and "${ext.id}" both add the listen filter "${ext.listen.field}"`);
        if (BOOLEAN_OR_CORE_FIELDS.has(ext.listen.field))
          refuse(StartupErrorCode.EXTENSION_METHOD_CLASH, `extension "${ext.id}" adds the listen filter "${ext.listen.field}", which is a core one`);
        listenOwners.set(ext.listen.field, ext.id);
        listens.set(ext.listen.field, ext.listen);
      }
      for (const key of Object.keys(ext.toolOptions ?? {})) {
        const other = this.toolOptionChecks.get(key);
        if (other) refuse(StartupErrorCode.INVALID_EXTENSION, `extensions "${other.id}" and "${ext.id}" both check the tool option "${key}"`);
        this.toolOptionChecks.set(key, ext);
      }
      for (const [name, handler] of Object.entries(ext.notifications ?? {})) this.notifications.set(name, { ext, handler });
    }
    this.methods = Object.freeze(list.flatMap((ext) => Object.entries(ext.methods ?? {}).map(([name, method]) => extensionMethod(ext, name, method))));
    this.middleware = Object.freeze(list.flatMap((ext) => ext.middleware ?? []));
    this.toolsCallAround = Object.freeze(list.flatMap((ext) => (ext.around?.['tools/call'] ? [ext.around['tools/call']] : [])));
    this.outbound = outboundChain(list);
    this.listens = listens;
    this.modernSettings = settingsOf(list, true);
    this.legacySettings = settingsOf(list, false);
  }

  /** Takes `name` for `ext`, or refuses it: a core name, another extension's, or a reserved prefix. */
  private claim(ext: Extension, name: string, owners: Map<string, string>): void {
    if (name.length === 0) refuse(StartupErrorCode.INVALID_EXTENSION, `extension "${ext.id}" has a method with an empty name`);
    if (CORE_REQUESTS.has(name) || CORE_NOTIFICATIONS.has(name))
      refuse(StartupErrorCode.EXTENSION_METHOD_CLASH, `extension "${ext.id}" adds "${name}", which is a core MCP method`);
    const prefix = RESERVED_PREFIXES.find((p) => name.startsWith(p));
    if (prefix && !(ext.id === TASKS_EXTENSION_ID && isBuiltIn(ext)))
      refuse(StartupErrorCode.EXTENSION_METHOD_CLASH, `extension "${ext.id}" adds "${name}", but "${prefix}" is reserved for ${TASKS_EXTENSION_ID}`);
    const owner = owners.get(name);
    if (owner !== undefined)
      refuse(
        StartupErrorCode.EXTENSION_METHOD_CLASH,
        owner === ext.id
          ? `extension "${ext.id}" adds "${name}" both as a method and as a notification`
          : `extensions "${owner}" and "${ext.id}" both add "${name}"`,
      );
    owners.set(name, ext.id);
  }

  /**
   * Checks every tool's extension options (`@Tool({ task })`) with the extension that owns the
   * key, and records what each check returned (`toolOption`). A key no extension checks, or one
   * its check refuses, fails start-up naming the tool.
   */
  checkTools(tools: Iterable<ToolEntry>): void {
    for (const tool of tools) {
      const options = tool.extensionOptions;
      if (!options) continue;
      const values = new Map<string, unknown>();
      for (const [key, value] of Object.entries(options)) {
        const ext = this.toolOptionChecks.get(key);
        if (!ext)
          refuse(StartupErrorCode.INVALID_TOOL_OPTION, `${tool.source}: the tool option "${key}" belongs to no installed extension (installed: ${this.ids()})`);
        try {
          values.set(key, ext.toolOptions![key]!(value, tool.name));
        } catch (error) {
          const why = error instanceof DecorumStartupError ? error.detail : error instanceof Error ? error.message : String(error);
          refuse(StartupErrorCode.INVALID_TOOL_OPTION, `${tool.source}: the tool option "${key}" (${ext.id}) is invalid: ${why}`);
        }
      }
      recordToolOptions(tool, values);
    }
  }

  private ids(): string {
    return this.list.length === 0 ? 'none' : this.list.map((e) => e.id).join(', ');
  }

  /** `capabilities.extensions` of `server/discover` (modern) or of a legacy `initialize`; `undefined` when none. */
  advertised(modern: boolean): Readonly<Record<string, JsonObject>> | undefined {
    return modern ? this.modernSettings : this.legacySettings;
  }

  /** The extra legacy `initialize` capabilities for `version` (Tasks: `capabilities.tasks`). */
  legacyCapabilities(version: string): JsonObject | undefined {
    let merged: JsonObject | undefined;
    for (const ext of this.list) {
      if (!inEra(ext.eras, false)) continue;
      const extra = ext.legacyCapabilities?.(version);
      if (extra) merged = { ...merged, ...extra };
    }
    return merged;
  }

  /** Whether some extension adds fields to legacy `tools/list` items. */
  get hasLegacyToolFields(): boolean {
    return this.list.some((ext) => ext.legacyToolFields !== undefined && inEra(ext.eras, false));
  }

  /** The extra fields of `tool`'s legacy `tools/list` item for `version`. */
  legacyToolFields(tool: ToolEntry, version: string): JsonObject | undefined {
    let merged: JsonObject | undefined;
    for (const ext of this.list) {
      if (!inEra(ext.eras, false)) continue;
      const extra = ext.legacyToolFields?.(tool, version);
      if (extra) merged = { ...merged, ...extra };
    }
    return merged;
  }

  /** A call derived from `call` by an `around` step's `proceed` (its own signal, asks, progress, notifications, data). */
  derive(call: PipelineCall, options: DerivedCallOptions): PipelineCall {
    return new DerivedCall(call as never, options);
  }

  /**
   * Runs the extension's handler of a client notification, if one handles its method in this
   * era: its errors (thrown or rejected) are logged, never answered. False when none does.
   */
  deliver(notification: JsonRpcNotification, modern: boolean, sessionId: string | undefined, logger: Logger): boolean {
    const routed = this.notifications.get(notification.method);
    if (!routed || !inEra(routed.handler.eras ?? routed.ext.eras, modern)) return false;
    const log = logger.child({ extension: routed.ext.id, method: notification.method });
    const failed = (error: unknown): void => log.error({ err: error }, 'an extension failed to handle a client notification');
    try {
      const running = routed.handler.run(notification.params ?? {}, { log, sessionId });
      if (running) running.catch(failed);
    } catch (error) {
      failed(error);
    }
    return true;
  }

  /**
   * Runs each extension's `install` in list order. If one throws, those already installed are
   * closed in reverse order and start-up fails: nothing stays half-installed.
   */
  install(host: ExtensionHost): void {
    for (const ext of this.list) {
      if (!ext.install) continue;
      let installed: InstalledExtension | void;
      try {
        installed = ext.install(host);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        void this.close(host.logger);
        throw Object.assign(new DecorumStartupError(StartupErrorCode.EXTENSION_INSTALL_FAILED, `extension "${ext.id}" failed to install: ${why}`), {
          cause: error,
        });
      }
      if (installed) this.installed.push(installed);
    }
  }

  /**
   * Closes what `install` made, in reverse order, each started at once (a failing `close` is
   * logged and the rest still close); resolves when every one has finished.
   */
  close(logger?: Logger): Promise<void> {
    const installed = this.installed.reverse();
    this.installed = [];
    const pending: Promise<void>[] = [];
    const failed = (error: unknown): void => void logger?.error({ err: error }, 'an extension failed to close');
    for (const one of installed) {
      try {
        const closing = one.close();
        if (closing) pending.push(Promise.resolve(closing).catch(failed));
      } catch (error) {
        failed(error);
      }
    }
    return Promise.all(pending).then(() => undefined);
  }
}

/** The settings advertised in one era, by id; `undefined` when no extension exists there. */
function settingsOf(list: readonly Extension[], modern: boolean): Readonly<Record<string, JsonObject>> | undefined {
  const present = list.filter((ext) => inEra(ext.eras, modern));
  if (present.length === 0) return undefined;
  return Object.freeze(Object.fromEntries(present.map((ext) => [ext.id, Object.freeze({ ...ext.settings })])));
}

/** The extensions' `outbound` steps as one, in list order; `undefined` when none has one. */
function outboundChain(list: readonly Extension[]): ExtensionSet['outbound'] {
  const steps = list.flatMap((ext) => (ext.outbound ? [ext.outbound] : []));
  if (steps.length === 0) return undefined;
  return (notification, call) => {
    let current: JsonRpcNotification | undefined = notification;
    for (const step of steps) {
      current = step(current, call);
      if (current === undefined) return undefined;
    }
    return current;
  };
}
