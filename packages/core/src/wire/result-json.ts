import { META } from '../protocol/meta-keys.js';
import type { Implementation, JsonObject } from '../protocol/types.js';
import { LONG_STRING, isPlainAscii } from './long-string-json.js';
import { numberJson } from './number-json.js';

/**
 * The JSON of a result response, written member by member instead of by one `JSON.stringify` of
 * the whole message.
 *
 * Why: `JSON.stringify` pays per object (a `toJSON` lookup along its prototype chain) and per
 * string, keys included (an escape scan), a large share of a tools/call's answer (docs/perf-notes.md,
 * "Figures behind source comments"). Here the envelope is a template, keys are quoted once and kept, the `_meta` the engine gives
 * every result (the server's frozen `serverInfo`) is serialized once per server, and only values
 * go through `JSON.stringify` — but the long strings of content blocks, which long-string-json.ts
 * writes without its escape scan.
 *
 * The output is exactly `JSON.stringify(message)` for a result of plain data (objects whose
 * prototype is `Object.prototype` or `null`). Whatever has a `toJSON` (which may depend on its key)
 * is left to `JSON.stringify` of the whole message: these functions answer `undefined`.
 */

/**
 * Keys seen in results and their blocks, quoted once, as a first member (`"content":`) and as a
 * later one (`,"content":`): a member's key is then written with no concatenation of its own.
 * Bounded: results come from handlers.
 */
const quotedKeys = new Map<string, readonly [first: string, later: string]>();
const MAX_QUOTED_KEYS = 256;

/** A member's key, quoted, with its colon, and with the comma before it unless it is the object's first. */
function memberKey(key: string, first: boolean): string {
  // The keys of nearly every tools/call result, without a Map lookup: property names are
  // internalized strings, which compare by pointer.
  switch (key) {
    case 'type':
      return first ? '"type":' : ',"type":';
    case 'text':
      return first ? '"text":' : ',"text":';
    case 'isError':
      return first ? '"isError":' : ',"isError":';
    case 'resultType':
      return first ? '"resultType":' : ',"resultType":';
  }
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    const key0 = `${JSON.stringify(key)}:`;
    quoted = [key0, `,${key0}`];
    if (quotedKeys.size < MAX_QUOTED_KEYS) quotedKeys.set(key, quoted);
  }
  return first ? quoted[0] : quoted[1];
}

/** Each server's `{"io.modelcontextprotocol/serverInfo":…}`, by its info object (frozen by createServer, as list pages bake it once too). */
const serverMetaJson = new WeakMap<object, string>();

/** A value `JSON.stringify(message)` would hand to a `toJSON` with its key: not written here. */
const UNSUPPORTED = Symbol('unsupported');

/**
 * `Object.prototype.hasOwnProperty`, called as a method in the `for…in` loops below: V8 answers it
 * there from the loop's enum cache, which it does not do for `Object.hasOwn`.
 */
const { hasOwnProperty } = Object.prototype;

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

/** Strings up to this length are checked here, one character at a time, for what JSON escapes. */
const SHORT_STRING = 64;

/** True when JSON writes the string as it is between quotes: no `"`, `\`, control or surrogate (a lone one is escaped). */
function writtenAsIs(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

/**
 * `JSON.stringify` of a number or a string, without its call for the common cases: an integer is
 * written digit by digit (number-json.ts), a short string that needs no escaping is itself between
 * quotes: a tools/call answer has several (the id, `type`, `text`, `resultType`), and these are
 * cheaper than the call (docs/perf-notes.md, "Figures behind source comments").
 */
export function scalarJson(value: number | string): string {
  if (typeof value === 'number') return numberJson(value);
  // The values of every tools/call answer's `resultType` and text block's `type`, without a string made.
  if (value === 'complete') return '"complete"';
  if (value === 'text') return '"text"';
  return value.length <= SHORT_STRING && writtenAsIs(value) ? `"${value}"` : JSON.stringify(value);
}

/** A member's JSON; `undefined` for what JSON leaves out (undefined, functions, symbols). */
function valueJson(value: unknown): string | undefined | typeof UNSUPPORTED {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string' || typeof value === 'number') return scalarJson(value);
  if (typeof value === 'object' && value !== null && hasToJson(value)) return UNSUPPORTED;
  return JSON.stringify(value);
}

/** The JSON of each {@link infoOnlyMeta} object, made with it. */
const infoOnlyMetaJson = new WeakMap<object, string>();

/**
 * A server's `_meta` for its results: `{ "io.modelcontextprotocol/serverInfo": info }`, frozen,
 * made once per server (createServer) and shared by its list pages and by every result that has
 * no `_meta` of its own: no spread and no object per result, and the writer finds its JSON by
 * identity. `info` must be frozen (createServer's is).
 */
export function infoOnlyMeta(info: Implementation): JsonObject {
  const meta: JsonObject = Object.freeze({ [META.serverInfo]: info as unknown as JsonObject });
  infoOnlyMetaJson.set(meta, JSON.stringify(meta));
  return meta;
}

/** The result's `_meta`: the engine's own (the server's info alone) is written once per server. */
function metaJson(meta: unknown): string | undefined | typeof UNSUPPORTED {
  if (typeof meta !== 'object' || meta === null) return valueJson(meta);
  const own = infoOnlyMetaJson.get(meta);
  if (own !== undefined) return own;
  if (hasToJson(meta) || !isPlainObject(meta)) return valueJson(meta);
  const keys = Object.keys(meta);
  const info = meta[META.serverInfo];
  if (keys.length !== 1 || keys[0] !== META.serverInfo || typeof info !== 'object' || info === null || !Object.isFrozen(info)) return JSON.stringify(meta);
  let json = serverMetaJson.get(info);
  if (json === undefined) serverMetaJson.set(info, (json = JSON.stringify(meta)));
  return json;
}

/**
 * A result response's JSON in three pieces: `head`, then one long string of a content block
 * written as it is (ASCII that JSON does not escape, so its UTF-8 bytes are its `latin1` bytes),
 * then `tail`. The quotes around the string end `head` and begin `tail`.
 *
 * Why: a transport that writes the pieces one after another sends a 64 KiB text (an echo, a file,
 * an image's base64) without first joining it into a 64 KiB message string, which V8 must copy
 * into a flat string (and the garbage collector copy again) before anything reads it, and without
 * encoding it as UTF-8 (docs/perf-notes.md, "Figures behind source comments").
 */
export class LongTextJson {
  constructor(
    readonly head: string,
    readonly text: string,
    readonly tail: string,
  ) {}

  /** The JSON's length in UTF-8 bytes (the text's is its length). */
  get byteLength(): number {
    return Buffer.byteLength(this.head) + this.text.length + Buffer.byteLength(this.tail);
  }

  /** The whole JSON as one string, for a transport that cannot write pieces. */
  toString(): string {
    return this.head + this.text + this.tail;
  }
}

/** Collects the message's text. */
class Writer {
  /** With {@link long}: the text before it, to the opening quote. */
  head = '';
  /** The long string set apart as a {@link LongTextJson}'s text, if one was. */
  long: string | undefined;

  /** @param longTextChars from this length a content block's plain ASCII string is set apart (the first one only). */
  constructor(
    public text: string,
    private readonly longTextChars: number,
  ) {}

  /** One content block: a plain one member by member, anything else whole. */
  block(block: unknown): boolean {
    if (typeof block !== 'object' || block === null) {
      this.text += JSON.stringify(block) ?? 'null';
      return true;
    }
    if (hasToJson(block)) return false;
    if (!isPlainObject(block)) {
      this.text += JSON.stringify(block);
      return true;
    }
    this.text += '{';
    let first = true;
    // for…in, not Object.keys: no array per object. A plain object has no enumerable inherited
    // keys unless Object.prototype was given one, which `hasOwnProperty` keeps out as JSON.stringify does.
    for (const field in block) {
      if (!hasOwnProperty.call(block, field)) continue;
      const value = (block as Record<string, unknown>)[field];
      let json: string | undefined | typeof UNSUPPORTED;
      if (typeof value === 'string' && value.length >= LONG_STRING) {
        const plain = isPlainAscii(value);
        if (plain && value.length >= this.longTextChars && this.long === undefined) {
          this.head = `${this.text}${memberKey(field, first)}"`;
          this.long = value;
          this.text = '"';
          first = false;
          continue;
        }
        json = plain ? `"${value}"` : JSON.stringify(value);
      } else {
        json = valueJson(value);
      }
      if (json === UNSUPPORTED) return false;
      if (json === undefined) continue;
      this.text += memberKey(field, first);
      this.text += json;
      first = false;
    }
    this.text += '}';
    return true;
  }

  /** The result's members in order; false when something in it is left to `JSON.stringify`. */
  result(result: Record<string, unknown>): boolean {
    let first = true;
    for (const key in result) {
      if (!hasOwnProperty.call(result, key)) continue;
      const value = result[key];
      if (key === 'content' && Array.isArray(value) && !hasToJson(value)) {
        this.text += first ? '"content":[' : ',"content":[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) this.text += ',';
          if (!this.block(value[i])) return false;
        }
        this.text += ']';
      } else {
        const json = key === '_meta' ? metaJson(value) : valueJson(value);
        if (json === UNSUPPORTED) return false;
        if (json === undefined) continue;
        this.text += memberKey(key, first);
        this.text += json;
      }
      first = false;
    }
    this.text += '}}';
    return true;
  }
}

/**
 * `JSON.stringify({ jsonrpc: '2.0', id, result })`, where `idJson` is the id's JSON; `undefined`
 * when left to `JSON.stringify`. With `longTextChars`, a content block's plain ASCII string of at
 * least that length comes set apart, as a {@link LongTextJson}.
 */
export function resultResponseJson(idJson: string, result: unknown): string | undefined;
export function resultResponseJson(idJson: string, result: unknown, longTextChars: number): string | LongTextJson | undefined;
export function resultResponseJson(idJson: string, result: unknown, longTextChars = Infinity): string | LongTextJson | undefined {
  if (typeof result !== 'object' || result === null || hasToJson(result) || !isPlainObject(result)) return undefined;
  const writer = new Writer(`{"jsonrpc":"2.0","id":${idJson},"result":{`, longTextChars);
  if (!writer.result(result)) return undefined;
  return writer.long === undefined ? writer.text : new LongTextJson(writer.head, writer.long, writer.text);
}
