import { InternalError } from '../errors/protocol-errors.js';

/**
 * The text of a tool result whose handler returned nothing (`undefined`, a `void` method): the
 * call succeeded, and an empty `content` would leave the model (and some hosts) guessing whether
 * it did. Return `{ content: [] }` for a result that is really empty.
 */
export const VOID_RESULT_TEXT = 'OK';

/**
 * The text block a tool's plain return value becomes (anything but a string, a content block or
 * a `CallToolResult`): `undefined` is {@link VOID_RESULT_TEXT}; a value whose JSON is a string
 * (a `Date`, a `URL`, …) is that string, unquoted (a `Date` is its ISO-8601 text); bytes
 * (`Buffer`, any typed array, `ArrayBuffer`) are refused, since a tool result gives them no MIME
 * type; a function or symbol is refused too; anything else is its JSON (`null` is `"null"`).
 */
export function valueText(value: unknown, toolName: string): string {
  if (value === undefined) return VOID_RESULT_TEXT;
  if (typeof value === 'object' && value !== null && (ArrayBuffer.isView(value) || value instanceof ArrayBuffer)) {
    throw new InternalError(
      `Tool "${toolName}" returned bytes (${value.constructor.name}), which a tool result cannot carry without a MIME type: return image(bytes, mimeType), audio(bytes, mimeType) or embeddedResource(uri, bytes, mimeType) from @decorum/core, or text`,
    );
  }
  const json = JSON.stringify(value) as string | undefined;
  if (json === undefined) throw new InternalError(`Tool "${toolName}" returned a ${typeof value}, which has no JSON form: return text or data`);
  // A JSON string here comes from a toJSON (strings were shaped before): give the text, not its quotes.
  return json.charCodeAt(0) === 34 ? (JSON.parse(json) as string) : json;
}
