/**
 * What a `requestState` is bound to: the request that issued it (method, tool/prompt/resource
 * name, a digest of its arguments) and the authenticated principal. A state presented with any
 * of them different is refused.
 */
import { createHash } from 'node:crypto';

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

/** JSON with object keys sorted at every level, so equal values have one spelling. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
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
