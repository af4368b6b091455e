/**
 * Result shaping for the legacy era. Methods answer what both eras share, and only the modern
 * codec adds the keys of 2026-07-28, so the engine's results have none to strip (a middleware's
 * own answer, written for both eras, may: see withoutModernKeys). What is left: legacy tool
 * schemas and `structuredContent` must be objects at the root; and a session that negotiated an
 * older revision gets only what that revision's schema defines (see revision-features.ts): no
 * `structuredContent`, titles or resource links before 2025-06-18, no audio or tool annotations
 * before 2025-03-26. List pages are made from a page's era-neutral members once per page and
 * revision (and so once per registry version), never per request. Anything a handler returned is
 * copied before it changes, since it may be shared with other sessions.
 */
import { RawJson } from '../wire/raw-json.js';
import type { JsonObject, JsonRpcNotification, Result } from '../protocol/types.js';
import { revisionHas } from './revision-features.js';
import { LATEST_LEGACY_PROTOCOL_VERSION } from './versions.js';
import { isJsonObject as isPlainObject } from '../protocol/json-object.js';
import { ListPage } from '../wire/list-page.js';

/** A copy of `item` without `keys` (the item itself when it has none of them). */
function without(item: JsonObject, keys: readonly string[]): JsonObject {
  if (!keys.some((key) => key in item)) return item;
  // Copied key by key rather than spread and deleted from: a deleted key makes a slow object.
  const copy: JsonObject = {};
  for (const key of Object.keys(item)) if (!keys.includes(key)) copy[key] = item[key];
  return copy;
}

/** The keys of a tool, resource, template, prompt or resource link that `version` does not define. */
function unknownDescriptorKeys(version: string): string[] {
  const keys: string[] = [];
  if (!revisionHas(version, 'icons')) keys.push('icons');
  if (!revisionHas(version, 'titles')) keys.push('title');
  if (!revisionHas(version, 'itemMeta')) keys.push('_meta');
  return keys;
}

/** `annotations` without `lastModified` where the revision lacks it (dropped when nothing is left). */
function withAnnotations(item: JsonObject, version: string): JsonObject {
  const annotations = item.annotations;
  if (revisionHas(version, 'lastModified') || !isPlainObject(annotations) || !('lastModified' in annotations)) return item;
  const { lastModified: _dropped, ...rest } = annotations;
  const copy = { ...item };
  if (Object.keys(rest).length > 0) copy.annotations = rest;
  else delete copy.annotations;
  return copy;
}

/** A resource, resource template or prompt (with its arguments' titles) as `version` defines it. */
function legacyDescriptor(item: JsonObject, version: string): JsonObject {
  let shaped = withAnnotations(without(item, unknownDescriptorKeys(version)), version);
  if (!revisionHas(version, 'titles') && Array.isArray(shaped.arguments)) {
    shaped = { ...shaped, arguments: (shaped.arguments as JsonObject[]).map((argument) => without(argument, ['title'])) };
  }
  return shaped;
}

/** A tool as a legacy client sees it: an output schema must describe an object, else it is left out. */
function legacyTool(tool: JsonObject, version: string): JsonObject {
  const drop = unknownDescriptorKeys(version);
  const output = tool.outputSchema;
  if (!revisionHas(version, 'structuredOutput') || (output !== undefined && !(isPlainObject(output) && output.type === 'object'))) drop.push('outputSchema');
  if (!revisionHas(version, 'toolAnnotations')) drop.push('annotations');
  return without(tool, drop);
}

/** A resource link said in words, for revisions without `resource_link` blocks. */
function linkAsText(link: JsonObject): JsonObject {
  const label = typeof link.title === 'string' ? link.title : String(link.name);
  const description = typeof link.description === 'string' ? `\n${link.description}` : '';
  const text: JsonObject = { type: 'text', text: `Resource "${label}": ${String(link.uri)}${description}` };
  if (link.annotations !== undefined) text.annotations = link.annotations;
  return text;
}

/** An audio block said in words, for 2024-11-05 (which has text, image and resource blocks only). */
function audioAsText(audio: JsonObject, version: string): JsonObject {
  const text: JsonObject = { type: 'text', text: `[audio (${String(audio.mimeType)}) left out: MCP ${version} has no audio content]` };
  if (audio.annotations !== undefined) text.annotations = audio.annotations;
  return text;
}

/** One content block of a tool result or prompt message, as `version` defines it. */
function legacyContent(block: unknown, version: string): unknown {
  if (!isPlainObject(block)) return block;
  let shaped = block;
  if (shaped.type === 'resource_link' && !revisionHas(version, 'resourceLinks')) shaped = linkAsText(shaped);
  else if (shaped.type === 'audio' && !revisionHas(version, 'audioContent')) shaped = audioAsText(shaped, version);
  if (shaped.type === 'resource_link') shaped = without(shaped, unknownDescriptorKeys(version));
  else if (!revisionHas(version, 'itemMeta')) {
    shaped = without(shaped, ['_meta']);
    if (shaped.type === 'resource' && isPlainObject(shaped.resource) && '_meta' in shaped.resource)
      shaped = { ...shaped, resource: without(shaped.resource, ['_meta']) };
  }
  return withAnnotations(shaped, version);
}

function mapList(result: JsonObject, key: string, shape: (item: JsonObject) => JsonObject): void {
  const list = result[key];
  if (Array.isArray(list)) result[key] = list.map((item) => (isPlainObject(item) ? shape(item) : item));
}

/**
 * How each method's result changes for a revision older than the latest legacy one (the latest
 * one only loses tool output schemas and structured content that are not objects). Each changes
 * a copy of the result it is given.
 */
const OLDER_REVISION_SHAPES: Record<string, (result: JsonObject, version: string) => void> = {
  'tools/list': (result, version) => mapList(result, 'tools', (tool) => legacyTool(tool, version)),
  'resources/list': (result, version) => mapList(result, 'resources', (item) => legacyDescriptor(item, version)),
  'resources/templates/list': (result, version) => mapList(result, 'resourceTemplates', (item) => legacyDescriptor(item, version)),
  'prompts/list': (result, version) => mapList(result, 'prompts', (item) => legacyDescriptor(item, version)),
  'tools/call': (result, version) => {
    if (!revisionHas(version, 'structuredOutput')) delete result.structuredContent;
    if (Array.isArray(result.content)) result.content = result.content.map((block) => legacyContent(block, version));
  },
  'prompts/get': (result, version) =>
    mapList(result, 'messages', (message) => ({ ...message, content: legacyContent(message.content, version) as JsonObject })),
  'resources/read': (result, version) => {
    if (!revisionHas(version, 'itemMeta')) mapList(result, 'contents', (contents) => without(contents, ['_meta']));
  },
};

/**
 * A result written for both eras (a middleware's own answer) may say `resultType` or cache hints,
 * which no legacy revision defines: a copy without them. The engine's own results never carry them.
 */
function withoutModernKeys(result: JsonObject): JsonObject {
  if (result.resultType === undefined && result.ttlMs === undefined && result.cacheScope === undefined) return result;
  const copy: JsonObject = {};
  for (const key in result) if (key !== 'resultType' && key !== 'ttlMs' && key !== 'cacheScope') copy[key] = result[key];
  return copy;
}

/** `result` as `version` defines it: the result itself when nothing changes, else a copy (what a handler returned inside it is copied where it changes). */
function shape(method: string, result: JsonObject, version: string): JsonObject {
  let shaped = withoutModernKeys(result);
  if (version !== LATEST_LEGACY_PROTOCOL_VERSION) {
    const reshape = OLDER_REVISION_SHAPES[method];
    if (reshape) reshape((shaped = { ...shaped }), version);
  } else if (method === 'tools/list') {
    mapList((shaped = { ...shaped }), 'tools', (tool) => legacyTool(tool, version));
  }
  // Legacy structuredContent is an object; a tool whose output is not one keeps its text block.
  if ('structuredContent' in shaped && !isPlainObject(shaped.structuredContent)) shaped = without(shaped, ['structuredContent']);
  return shaped;
}

const legacyPages = new WeakMap<ListPage, Map<string, RawJson>>();

/** A list page's JSON for `version`, made from its era-neutral members on first use. */
function legacyPage(method: string, page: ListPage, version: string): RawJson {
  let byVersion = legacyPages.get(page);
  if (!byVersion) legacyPages.set(page, (byVersion = new Map()));
  let shaped = byVersion.get(version);
  if (!shaped) {
    let members = shape(method, page.members, version);
    const extra = page.legacyItemFields;
    // The extensions' fields of each item (a tool's `execution`), after the revision's own shaping.
    if (extra) mapList((members = { ...members }), 'tools', (item) => ({ ...item, ...extra(item, version) }));
    shaped = new RawJson(JSON.stringify(members));
    byVersion.set(version, shaped);
  }
  return shaped;
}

/**
 * The engine's answer to `method`, as a legacy session that negotiated `version` reads it; list
 * pages are made once per page and revision. Any other pre-serialized result is already what its
 * maker meant to send.
 */
export function legacyResult(method: string, result: Result | RawJson, version: string): JsonObject | RawJson {
  if (result instanceof ListPage) return legacyPage(method, result, version);
  return result instanceof RawJson ? result : shape(method, result, version);
}

/** A notification of a request (progress, log) as `version` defines it: 2024-11-05 progress has no message. */
export function legacyNotification(notification: JsonRpcNotification, version: string): JsonRpcNotification {
  if (
    notification.method !== 'notifications/progress' ||
    revisionHas(version, 'progressMessage') ||
    !notification.params ||
    !('message' in notification.params)
  )
    return notification;
  return { ...notification, params: without(notification.params, ['message']) };
}
