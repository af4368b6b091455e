import type { CacheOptions } from '../decorators/metadata.js';
import type { Completer } from '../decorators/complete.js';
import type { RequestContext, ResourceContext } from '../context/request-context.js';
import type { PromptDescriptor, ResourceDescriptor, ResourceTemplateDescriptor, ToolDefinition } from '../protocol/types.js';
import type { CompiledSchema } from '../schema/compiled-input.js';
import type { UriTemplate } from './uri-template.js';
import type { EntrySteps } from '../decorators/step-records.js';

/** Where a member was declared, for start-up errors and logs: `WeatherServer.weather_current`. */
export type SourceName = string;

/** A tool, ready to serve: its listing, compiled validators and bound handler. */
export interface ToolEntry {
  readonly name: string;
  readonly source: SourceName;
  readonly definition: Readonly<ToolDefinition>;
  readonly input: CompiledSchema;
  readonly output: CompiledSchema | undefined;
  readonly cache: CacheOptions;
  /** OAuth scopes the item requires (from the decorator's `scopes`); empty when none. */
  readonly scopes: readonly string[];
  /** Its `@Use` middleware and `@Guard` guards (class ones first); absent when it has none. */
  readonly steps?: EntrySteps;
  /** The decorator's options that belong to extensions (`task`), as declared; absent when none. Checked at start-up. */
  readonly extensionOptions?: Readonly<Record<string, unknown>>;
  /** Calls the handler on its instance. */
  invoke(args: unknown, ctx: RequestContext): unknown;
}

/** A prompt, ready to serve. */
export interface PromptEntry {
  readonly name: string;
  readonly source: SourceName;
  readonly descriptor: Readonly<PromptDescriptor>;
  readonly input: CompiledSchema;
  /** Hints for the `prompts/list` page that lists it. */
  readonly cache: CacheOptions;
  /** OAuth scopes the item requires (from the decorator's `scopes`); empty when none. */
  readonly scopes: readonly string[];
  /** Its `@Use` middleware and `@Guard` guards (class ones first); absent when it has none. */
  readonly steps?: EntrySteps;
  /** Calls the handler on its instance. */
  invoke(args: unknown, ctx: RequestContext): unknown;
}

/** What fixed resources and templates share. */
interface ResourceEntryBase {
  readonly name: string;
  readonly source: SourceName;
  readonly mimeType: string | undefined;
  /** Hints for reading it (not for the list that names it). */
  readonly cache: CacheOptions;
  /** OAuth scopes the item requires (from the decorator's `scopes`); empty when none. */
  readonly scopes: readonly string[];
  /** Its `@Use` middleware and `@Guard` guards (class ones first); absent when it has none. */
  readonly steps?: EntrySteps;
  invoke(variables: Record<string, string | string[]>, ctx: ResourceContext): unknown;
}

/** A resource at a fixed URI. */
export interface FixedResourceEntry extends ResourceEntryBase {
  readonly kind: 'fixed';
  readonly uri: string;
  readonly descriptor: Readonly<ResourceDescriptor>;
}

/** A family of resources described by an RFC 6570 template. */
export interface TemplateResourceEntry extends ResourceEntryBase {
  readonly kind: 'template';
  readonly template: UriTemplate;
  /** The variables' schema (`input:` or the handler's DTO parameter), checked on every read; absent when the handler declares none. */
  readonly input?: CompiledSchema;
  readonly descriptor: Readonly<ResourceTemplateDescriptor>;
}

/** A registered resource: a fixed URI or a URI template. */
export type ResourceEntry = FixedResourceEntry | TemplateResourceEntry;

/** A completer bound to its instance, with where it was declared and what it completes. */
export interface CompleterEntry {
  /** The reference it completes: `prompt:<name>` or `resource:<uri or template>` (see `completionKey`). */
  readonly key: string;
  readonly argument: string;
  readonly source: SourceName;
  readonly complete: Completer;
}

/** The lookup key of a reference: `prompt:<name>` or `resource:<uri or template>`. */
export function completionKey(target: { prompt?: string; resource?: string }): string {
  return target.prompt !== undefined ? `prompt:${target.prompt}` : `resource:${target.resource}`;
}
