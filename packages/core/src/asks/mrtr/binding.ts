/**
 * What a `requestState` is bound to: the request that issued it (method, tool/prompt/resource
 * name, a digest of its arguments) and the authenticated principal. A state presented with any
 * of them different is refused.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/** The request a state belongs to. */
export interface StateBinding {
  readonly method: string;
  /** The tool or prompt name, or the resource URI. */
  readonly name: string;
  /** SHA-256 (base64url) of the canonical JSON of the arguments. */
  readonly args: string;
  /** SHA-256 (base64url) of the principal, or `null` without authentication (never the principal itself). */
  readonly principal: string | null;
}

/**
 * The RFC 8785 (JCS) spelling of `value`, so equal values have one spelling. JCS refuses strings
 * with lone surrogates, which JSON escapes (`"\\ud800"`) can carry into arguments: such a value is
 * spelt with every string (and key) replaced by its JSON literal, behind a `!` that no JCS text
 * starts with, so it still has exactly one spelling of its own.
 */
export function canonicalJson(value: unknown): string {
  try {
    return canonicalize(value) ?? 'null';
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('Lone surrogate')) throw error;
    return `!${canonicalize(withLiteralStrings(value)) ?? 'null'}`;
  }
}

/** `value` with every string, key or value, replaced by its JSON literal (always well-formed). */
function withLiteralStrings(value: unknown): unknown {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(withLiteralStrings);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [JSON.stringify(k), withLiteralStrings(v)]));
}

/** SHA-256 of the canonical JSON of `value`, base64url. */
export function digest(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('base64url');
}

export function bindingOf(method: string, name: string, args: unknown, principal: string | undefined): StateBinding {
  return { method, name, args: digest(args ?? {}), principal: principal === undefined ? null : digest(principal) };
}

const WHAT: Record<keyof StateBinding, string> = {
  method: 'a different method',
  name: 'a different tool, prompt or resource',
  args: 'different arguments',
  principal: 'a different principal',
};

/** Why `presented` does not fit `current` (a readable phrase), or `undefined` when it does. */
export function bindingMismatch(presented: StateBinding, current: StateBinding): string | undefined {
  const differs = (Object.keys(WHAT) as Array<keyof StateBinding>).filter((k) => presented[k] !== current[k]);
  if (differs.length === 0) return undefined;
  return `requestState was issued for ${differs.map((k) => WHAT[k]).join(' and ')}; retry the original request unchanged, or start over without requestState`;
}
