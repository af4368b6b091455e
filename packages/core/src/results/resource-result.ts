import { InvalidParamsError } from '../errors/protocol-errors.js';
import type { ResourceContents } from '../protocol/types.js';
import { toBase64 } from './content.js';

function isContents(value: unknown): value is Partial<ResourceContents> {
  return (
    typeof value === 'object' &&
    value !== null &&
    (typeof (value as { text?: unknown }).text === 'string' || typeof (value as { blob?: unknown }).blob === 'string')
  );
}

function one(value: unknown, uri: string, mimeType: string | undefined): ResourceContents | undefined {
  const withType = <T extends object>(c: T): T => (mimeType && !('mimeType' in c) ? { ...c, mimeType } : c);
  if (typeof value === 'string') return withType({ uri, text: value });
  if (value instanceof Uint8Array) return withType({ uri, blob: toBase64(value) });
  if (isContents(value)) return withType({ uri, ...value } as ResourceContents);
  return undefined;
}

/**
 * Shapes what a resource handler returned into `contents`: a string is text, bytes
 * (`Buffer`/`Uint8Array`) are a base64 blob, content objects get the URI and MIME type filled in,
 * and `{ contents }` or an array may carry several items. `undefined`/`null` means there is no
 * such resource, which the spec answers with -32602 — never an empty `contents`.
 */
export function resourceContentsFromValue(value: unknown, uri: string, mimeType: string | undefined): ResourceContents[] {
  if (value === undefined || value === null) throw new InvalidParamsError(`Resource not found: ${uri}`, { uri });
  const list = Array.isArray(value) ? value : isContentsList(value) ? value.contents : [value];
  const contents = list.map((item) => one(item, uri, mimeType));
  if (contents.length === 0 || contents.some((c) => c === undefined)) {
    throw new TypeError(`resource handler for ${uri} returned something that is not text, bytes or resource contents`);
  }
  return contents as ResourceContents[];
}

function isContentsList(value: unknown): value is { contents: unknown[] } {
  return typeof value === 'object' && value !== null && Array.isArray((value as { contents?: unknown }).contents);
}
