/** What the client's `Accept` header lets the endpoint answer with. */
export interface AcceptedResponses {
  readonly json: boolean;
  readonly sse: boolean;
}

/** The Content-Type of every JSON answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';

const BOTH: AcceptedResponses = Object.freeze({ json: true, sse: true });

function quality(params: string[]): number {
  for (const param of params) {
    const [name, value] = param.split('=').map((s) => s.trim());
    if (name.toLowerCase() === 'q') {
      const q = Number(value);
      return Number.isFinite(q) ? q : 1;
    }
  }
  return 1;
}

/**
 * Reads `Accept` (RFC 9110 §12.5.1, with wildcards and `q=0` exclusions). Clients must list both
 * `application/json` and `text/event-stream`; a missing or empty header is accepted leniently as
 * "either". Neither allowed → the caller answers 406.
 */
export function acceptedResponses(accept: string | undefined): AcceptedResponses {
  // A client sends the same Accept on every request: the last answer is kept (it is immutable).
  if (accept === lastAccept) return lastAnswer;
  const answer = parseAccept(accept);
  lastAccept = accept;
  lastAnswer = answer;
  return answer;
}

let lastAccept: string | undefined;
let lastAnswer: AcceptedResponses = BOTH;

function parseAccept(accept: string | undefined): AcceptedResponses {
  if (accept === undefined || accept.trim() === '') return BOTH;
  let json = false;
  let sse = false;
  for (const range of accept.split(',')) {
    const [mediaRange, ...params] = range.split(';');
    const media = mediaRange.trim().toLowerCase();
    if (quality(params) <= 0) continue;
    if (media === '*/*') return BOTH;
    if (media === 'application/*' || media === 'application/json') json = true;
    if (media === 'text/*' || media === 'text/event-stream') sse = true;
  }
  return json && sse ? BOTH : Object.freeze({ json, sse });
}
