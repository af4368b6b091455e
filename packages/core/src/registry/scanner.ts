import type { Completer } from '../decorators/complete.js';
import {
  classChain,
  COMPLETE_METADATA,
  MEMBER_METADATA,
  SERVER_METADATA,
  type CompleteRecord,
  type McpServerOptions,
  type MemberRecord,
  type PromptOptions,
  type ResourceOptions,
  type ToolOptions,
} from '../decorators/metadata.js';
import { standardRecords } from '../decorators/standard.js';
import { isDecoratedDto } from '../schema/dto/decorated-class.js';
import { refuseLostDesignTypes } from '../schema/dto/design-types.js';
import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';
import type { PromptArgument, ToolDefinition } from '../protocol/types.js';
import { compileSchema, type CompiledSchema } from '../schema/compiled-input.js';
import { checkTemplateVariables } from './template-input.js';
import { UriTemplate } from './uri-template.js';
import { completionKey, type CompleterEntry, type PromptEntry, type ResourceEntry, type SourceName, type ToolEntry } from './entries.js';
import { resolveInputSource } from './input-source.js';
import { checkToolName } from './names.js';
import { entrySteps } from '../decorators/step-records.js';

/** What one decorated class (or instance) contributes. */
export interface ScannedServer {
  readonly className: string;
  readonly server: McpServerOptions | undefined;
  readonly tools: ToolEntry[];
  readonly prompts: PromptEntry[];
  readonly resources: ResourceEntry[];
  /** `@Complete` methods, bound; the registry keeps those whose prompt or resource it serves. */
  readonly completers: CompleterEntry[];
}

type Handler = (...args: unknown[]) => unknown;

/**
 * A tool or prompt without arguments accepts only `{}`. Plain JSON Schema (what
 * `Type.Object({}, { additionalProperties: false })` is), so that scanning loads no TypeBox.
 */
const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false };

/**
 * The records under `key` of a class and its ancestors, legacy (reflect-metadata) and standard
 * (`Symbol.metadata`) alike; a subclass's record wins over an ancestor's with the same `identity`.
 */
function classRecords<R>(ctor: object, key: symbol, identity: (record: R) => string): R[] {
  const byKey = new Map<string, R>();
  for (const c of classChain(ctor)) {
    const own: R[] = [...(Reflect.getOwnMetadata(key, c) ?? []), ...standardRecords<R>(c, key)];
    for (const record of own) byKey.set(identity(record), record);
  }
  return [...byKey.values()];
}

/** Member records of a class and its ancestors; a subclass's record wins for the same method. */
function memberRecords(ctor: object): MemberRecord[] {
  return classRecords<MemberRecord>(ctor, MEMBER_METADATA, (record) => `${record.kind}:${record.propertyKey}`);
}

/**
 * True when `target` is something `createServer` can serve: a class (or an instance of one) that
 * carries `@McpServer` or any decorated member. (A built server is a `DecorumServer`.)
 */
export function isServerTarget(target: unknown): boolean {
  const ctor = typeof target === 'function' ? target : (target as { constructor?: unknown } | null)?.constructor;
  if (typeof ctor !== 'function') return false;
  return Reflect.hasMetadata(SERVER_METADATA, ctor) || memberRecords(ctor).length > 0;
}

function schemaFor(source: object | null, where: string, objectRoot = true): CompiledSchema {
  try {
    return compileSchema(source ?? NO_ARGUMENTS, objectRoot);
  } catch (error) {
    if (error instanceof DecorumStartupError) throw error.within(where);
    throw new DecorumStartupError(StartupErrorCode.UNSUPPORTED_INPUT, `${where}: ${(error as Error).message}`);
  }
}

/** The decorator's `scopes`, frozen; each must be an RFC 6749 scope token (it goes into `WWW-Authenticate`). */
function scopesOf(scopes: readonly string[] | undefined, source: SourceName): readonly string[] {
  if (scopes === undefined) return Object.freeze([]);
  if (!Array.isArray(scopes)) throw new DecorumStartupError(StartupErrorCode.INVALID_DECLARATION, `${source}: scopes must be an array of strings`);
  for (const scope of scopes) {
    if (typeof scope !== 'string' || !/^[\x21\x23-\x5B\x5D-\x7E]+$/.test(scope)) {
      throw new DecorumStartupError(
        StartupErrorCode.INVALID_DECLARATION,
        `${source}: ${JSON.stringify(scope)} is not a valid OAuth scope (printable ASCII without spaces, quotes or backslashes)`,
      );
    }
  }
  return Object.freeze([...new Set(scopes)]);
}

function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** What a tool, a prompt and a resource read alike from their record: name, source, cache hints, steps, the bound handler. */
function entryBase(instance: object, record: MemberRecord & { options: ToolOptions | PromptOptions | ResourceOptions }, className: string) {
  const { options } = record;
  const handler = (instance as Record<string, Handler>)[record.propertyKey];
  return {
    handler,
    name: options.name ?? record.propertyKey,
    source: `${className}.${record.propertyKey}`,
    cache: { ttlMs: options.ttlMs, cacheScope: options.cacheScope },
    steps: entrySteps((instance as { constructor: object }).constructor, record.propertyKey),
    invoke: (input: unknown, ctx: unknown) => handler.call(instance, input, ctx),
  };
}

/** A tool's or prompt's input schema: `input:`, a DTO parameter, or none; compiled once. */
function argumentsSchema(record: MemberRecord & { options: ToolOptions | PromptOptions }, handler: Handler, source: string, what: string): CompiledSchema {
  const inputSource = resolveInputSource(record.options, record.paramTypes, handler, source);
  const input = schemaFor(inputSource, `${what} of ${source}`);
  refuseLostDesignTypes(inputSource, record.paramTypes, source);
  return input;
}

/** The `@Tool` option keys core reads; any other key belongs to an extension (`task`). */
const CORE_TOOL_OPTIONS: ReadonlySet<string> = new Set([
  'name',
  'title',
  'description',
  'input',
  'output',
  'annotations',
  'icons',
  '_meta',
  'scopes',
  'ttlMs',
  'cacheScope',
]);

/** The options of `options` that extensions check (extension-set.ts), frozen; `undefined` when none. */
function extensionOptionsOf(options: ToolOptions): Readonly<Record<string, unknown>> | undefined {
  const own = Object.entries(options).filter(([key, value]) => !CORE_TOOL_OPTIONS.has(key) && value !== undefined);
  return own.length === 0 ? undefined : Object.freeze(Object.fromEntries(own));
}

function buildTool(instance: object, record: MemberRecord & { options: ToolOptions }, className: string): ToolEntry {
  const { options } = record;
  const { handler, name, source, cache, steps, invoke } = entryBase(instance, record, className);
  checkToolName(name, source);
  const input = argumentsSchema(record, handler, source, 'input schema');
  const output = options.output ? schemaFor(options.output, `output schema of ${source}`, false) : undefined;
  const definition: ToolDefinition = definedOnly({
    name,
    title: options.title,
    description: options.description,
    icons: options.icons,
    inputSchema: input.jsonSchema,
    outputSchema: output?.jsonSchema,
    annotations: options.annotations,
    _meta: options._meta,
  });
  return Object.freeze({
    name,
    source,
    definition: Object.freeze(definition),
    input,
    output,
    cache,
    scopes: scopesOf(options.scopes, source),
    steps,
    ...definedOnly({ extensionOptions: extensionOptionsOf(options) }),
    invoke,
  });
}

function promptArguments(schema: Record<string, unknown>): PromptArgument[] {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) =>
    definedOnly({
      name,
      title: typeof property.title === 'string' ? property.title : undefined,
      description: typeof property.description === 'string' ? property.description : undefined,
      required: required.has(name),
    }),
  );
}

function buildPrompt(instance: object, record: MemberRecord & { options: PromptOptions }, className: string): PromptEntry {
  const { options } = record;
  const { handler, name, source, cache, steps, invoke } = entryBase(instance, record, className);
  const input = argumentsSchema(record, handler, source, 'arguments');
  const args = promptArguments(input.jsonSchema);
  return Object.freeze({
    name,
    source,
    descriptor: Object.freeze(
      definedOnly({
        name,
        title: options.title,
        description: options.description,
        arguments: args.length ? args : undefined,
        icons: options.icons,
        _meta: options._meta,
      }),
    ),
    input,
    cache,
    scopes: scopesOf(options.scopes, source),
    steps,
    invoke,
  });
}

/**
 * The schema of a template's variables, where the handler says what it reads: `input:`, or a DTO
 * class as the first parameter's type. Checked against the template's variables here, once.
 */
function templateInput(template: UriTemplate, declared: object | undefined, paramTypes: unknown[] | undefined, source: string): CompiledSchema | undefined {
  const inputSource = declared ?? (isDecoratedDto(paramTypes?.[0]) ? paramTypes[0] : undefined);
  if (inputSource === undefined) return undefined;
  const input = schemaFor(inputSource, `variables of ${source}`);
  refuseLostDesignTypes(inputSource, paramTypes, source);
  checkTemplateVariables(template, input.jsonSchema, source);
  return input;
}

function buildResource(instance: object, record: MemberRecord & { options: ResourceOptions }, className: string): ResourceEntry {
  const { options } = record;
  const { name, source, cache, steps, invoke } = entryBase(instance, record, className);
  const common = {
    title: options.title,
    description: options.description,
    mimeType: options.mimeType,
    annotations: options.annotations,
    icons: options.icons,
    _meta: options._meta,
  };
  const scopes = scopesOf(options.scopes, source);
  if ((options.uri === undefined) === (options.uriTemplate === undefined)) {
    throw new DecorumStartupError(StartupErrorCode.INVALID_DECLARATION, `@Resource on ${source} needs exactly one of uri: or uriTemplate:`);
  }
  if (options.uri !== undefined) {
    if (/[{}]/.test(options.uri)) {
      throw new DecorumStartupError(
        StartupErrorCode.INVALID_DECLARATION,
        `@Resource on ${source}: ${JSON.stringify(options.uri)} holds {…}, which no URI may: for an RFC 6570 template write uriTemplate: instead of uri:`,
      );
    }
    if (options.input !== undefined) {
      throw new DecorumStartupError(StartupErrorCode.INVALID_DECLARATION, `@Resource on ${source}: input: describes template variables; a fixed uri: has none`);
    }
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(options.uri)) {
      throw new DecorumStartupError(
        StartupErrorCode.INVALID_DECLARATION,
        `@Resource on ${source}: ${JSON.stringify(options.uri)} is not an absolute URI (scheme:…)`,
      );
    }
    const descriptor = definedOnly({ uri: options.uri, name, ...common, size: 'size' in options ? options.size : undefined });
    return Object.freeze({
      kind: 'fixed' as const,
      name,
      source,
      uri: options.uri,
      descriptor: Object.freeze(descriptor),
      mimeType: options.mimeType,
      cache,
      scopes,
      steps,
      invoke,
    });
  }
  let template: UriTemplate;
  try {
    template = new UriTemplate(options.uriTemplate as string);
  } catch (error) {
    throw new DecorumStartupError(StartupErrorCode.INVALID_DECLARATION, `@Resource on ${source}: invalid URI template: ${(error as Error).message}`);
  }
  const input = templateInput(template, options.input, record.paramTypes, source);
  const descriptor = definedOnly({ uriTemplate: template.template, name, ...common });
  return Object.freeze({
    kind: 'template' as const,
    name,
    source,
    template,
    input,
    descriptor: Object.freeze(descriptor),
    mimeType: options.mimeType,
    cache,
    scopes,
    steps,
    invoke,
  });
}

function buildCompleter(instance: object, { propertyKey, target }: CompleteRecord, className: string): CompleterEntry {
  const source = `${className}.${propertyKey}`;
  const method = (instance as Record<string, unknown>)[propertyKey];
  if (typeof method !== 'function')
    throw new DecorumStartupError(StartupErrorCode.INVALID_DECLARATION, `${source} is decorated with @Complete but is not a method`);
  if ((target.prompt === undefined) === (target.resource === undefined) || typeof target.argument !== 'string') {
    throw new DecorumStartupError(StartupErrorCode.INVALID_DECLARATION, `@Complete on ${source} needs exactly one of prompt: or resource:, and argument:`);
  }
  const complete: Completer = (value, ctx) => (method as Completer).call(instance, value, ctx);
  return Object.freeze({ key: completionKey(target), argument: target.argument, source, complete });
}

/**
 * Reads one decorated class (instantiated with no arguments) or instance. All schema
 * generation and validator compilation happens here, once.
 */
export function scanServer(target: object): ScannedServer {
  const instance = typeof target === 'function' ? new (target as new () => object)() : target;
  const ctor = (instance as { constructor: { name: string } }).constructor;
  const className = ctor.name || 'AnonymousServer';
  const scanned: ScannedServer = {
    className,
    server: Reflect.getMetadata(SERVER_METADATA, ctor) as McpServerOptions | undefined,
    tools: [],
    prompts: [],
    resources: [],
    completers: [],
  };
  for (const record of memberRecords(ctor)) {
    if (typeof (instance as Record<string, unknown>)[record.propertyKey] !== 'function') {
      throw new DecorumStartupError(StartupErrorCode.INVALID_DECLARATION, `${className}.${record.propertyKey} is decorated but is not a method`);
    }
    if (record.kind === 'tool') scanned.tools.push(buildTool(instance, record, className));
    else if (record.kind === 'prompt') scanned.prompts.push(buildPrompt(instance, record, className));
    else scanned.resources.push(buildResource(instance, record, className));
  }
  for (const record of classRecords<CompleteRecord>(ctor, COMPLETE_METADATA, (r) => r.propertyKey))
    scanned.completers.push(buildCompleter(instance, record, className));
  return scanned;
}
