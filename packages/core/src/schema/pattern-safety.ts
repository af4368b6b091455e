import safeRegex from 'safe-regex2';
import type { Logger } from 'pino';
import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';
import type { SourceName } from '../registry/entries.js';
import type { JsonSchema } from './json-schema.js';

/**
 * What to do at start-up with an argument pattern (`@Matches`, TypeBox `pattern`,
 * `patternProperties`) that can backtrack catastrophically — `/^(a+)+$/` takes ~15 s on a
 * 28-character input, on the event loop, stalling every client:
 * - `refuse` (default): a start-up error naming the item, the pattern and the fix;
 * - `warn`: a log line per pattern, and serve anyway;
 * - `allow`: no check.
 *
 * The analyser is safe-regex2 (maintained by the Fastify team, which checks route patterns with it):
 * it flags nested quantifiers (star height > 1) and very large repetitions. It is a heuristic —
 * it errs on the side of flagging — so a pattern you have reviewed can be served with `warn`.
 */
export type UnsafePatternPolicy = 'refuse' | 'warn' | 'allow';

/** Every `pattern` and `patternProperties` key in a JSON Schema, with its JSON Pointer. */
function* patternsIn(schema: unknown, pointer = ''): Generator<{ pattern: string; pointer: string }> {
  if (typeof schema !== 'object' || schema === null) return;
  if (Array.isArray(schema)) {
    for (let i = 0; i < schema.length; i++) yield* patternsIn(schema[i], `${pointer}/${i}`);
    return;
  }
  const node = schema as Record<string, unknown>;
  if (typeof node.pattern === 'string') yield { pattern: node.pattern, pointer: `${pointer}/pattern` };
  if (typeof node.patternProperties === 'object' && node.patternProperties !== null) {
    for (const key of Object.keys(node.patternProperties)) yield { pattern: key, pointer: `${pointer}/patternProperties` };
  }
  for (const [key, value] of Object.entries(node)) if (typeof value === 'object') yield* patternsIn(value, `${pointer}/${key}`);
}

/** True when safe-regex2 judges the pattern free of catastrophic backtracking (an invalid pattern is not safe). */
export function isSafePattern(pattern: string): boolean {
  return safeRegex(pattern);
}

/**
 * Checks the patterns of the schemas an item accepts, once, at start-up (see {@link UnsafePatternPolicy}).
 *
 * @throws DecorumStartupError under `refuse`, for the first unsafe pattern.
 */
export function checkPatterns(schemas: ReadonlyArray<{ source: SourceName; schema: JsonSchema }>, policy: UnsafePatternPolicy, logger: Logger): void {
  if (policy === 'allow') return;
  const seen = new Set<string>();
  for (const { source, schema } of schemas) {
    for (const { pattern, pointer } of patternsIn(schema)) {
      if (seen.has(pattern) || isSafePattern(pattern)) continue;
      seen.add(pattern);
      const what = `${source}: the pattern ${JSON.stringify(pattern)} (at ${pointer}) can backtrack catastrophically (ReDoS): one crafted argument would stall the server`;
      if (policy === 'refuse') {
        throw new DecorumStartupError(
          StartupErrorCode.UNSAFE_PATTERN,
          `${what}. Rewrite it without nested quantifiers (e.g. /^a+$/ for /^(a+)+$/), or, once reviewed, serve it with createServer's unsafePatterns: 'warn'`,
        );
      }
      logger.warn({ source, pattern, pointer }, `${what}; served anyway (unsafePatterns: 'warn')`);
    }
  }
}
