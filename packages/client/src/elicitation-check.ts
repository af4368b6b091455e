import type { JsonObject } from '@decorum/core';
import { AskRefusedError } from './errors.js';
import type { InputHandlers } from './input-handlers.js';

const WEB = new Set(['http:', 'https:']);

/**
 * Refuses, before any handler runs, an elicitation the client never offered: a mode it did not
 * declare (form is declared with the handler, url only with `elicitationUrl`), or a URL that is
 * not http(s) (`javascript:`, `file:`, `data:` must never reach a prompt that offers to open it).
 */
export function checkElicitation(handlers: InputHandlers, params: JsonObject | undefined): void {
  const mode = params?.mode ?? 'form';
  if (mode === 'form') return;
  if (mode !== 'url' || !handlers.elicitationUrl)
    throw new AskRefusedError('elicitation/create', `mode ${JSON.stringify(mode)}, which the client did not declare`);
  const url = typeof params?.url === 'string' && URL.canParse(params.url) ? new URL(params.url) : undefined;
  if (!url || !WEB.has(url.protocol))
    throw new AskRefusedError('elicitation/create', `a url that is not an absolute http(s) URL (${JSON.stringify(String(params?.url).slice(0, 200))})`);
}
