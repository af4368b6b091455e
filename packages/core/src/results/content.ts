import type {
  Annotations,
  AudioContent,
  ContentBlock,
  EmbeddedResource,
  ImageContent,
  ResourceDescriptor,
  ResourceLink,
  TextContent,
} from '../protocol/types.js';

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource_link', 'resource']);

function base64(data: string | Uint8Array): string {
  return typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}

/** A text content block. */
export function text(value: string, annotations?: Annotations): TextContent {
  return annotations ? { type: 'text', text: value, annotations } : { type: 'text', text: value };
}

/** An image block; `data` is raw bytes or an already base64-encoded string. */
export function image(data: string | Uint8Array, mimeType: string, annotations?: Annotations): ImageContent {
  return { type: 'image', data: base64(data), mimeType, ...(annotations ? { annotations } : {}) };
}

/** An audio block; `data` is raw bytes or an already base64-encoded string. */
export function audio(data: string | Uint8Array, mimeType: string, annotations?: Annotations): AudioContent {
  return { type: 'audio', data: base64(data), mimeType, ...(annotations ? { annotations } : {}) };
}

/** A link to a resource the client may read (it need not appear in `resources/list`). */
export function resourceLink(resource: ResourceDescriptor): ResourceLink {
  return { type: 'resource_link', ...resource };
}

/** A resource embedded in the result: text when `content` is a string, else a base64 blob. */
export function embeddedResource(uri: string, content: string | Uint8Array, mimeType?: string, annotations?: Annotations): EmbeddedResource {
  const body = typeof content === 'string' ? { uri, text: content } : { uri, blob: base64(content) };
  return { type: 'resource', resource: mimeType ? { ...body, mimeType } : body, ...(annotations ? { annotations } : {}) };
}

/** True for an object shaped like one content block. */
export function isContentBlock(value: unknown): value is ContentBlock {
  return typeof value === 'object' && value !== null && CONTENT_TYPES.has((value as { type?: unknown }).type as string);
}

/** Encodes bytes as base64 (Buffer and any Uint8Array). */
export function toBase64(data: Uint8Array): string {
  return base64(data);
}
