import Negotiator from 'negotiator';

/** What the client's `Accept` header lets the endpoint answer with. */
export interface AcceptedResponses {
  readonly json: boolean;
  readonly sse: boolean;
}

/** The Content-Type of every JSON answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** The Content-Type of an SSE answer. */
const SSE_TYPE = 'text/event-stream';

/** The two media types an answer can have, as negotiator matches them against the header's ranges. */
const ANSWER_TYPES = [JSON_TYPE, SSE_TYPE];

const BOTH: AcceptedResponses = Object.freeze({ json: true, sse: true });

/**
 * Reads `Accept` (RFC 9110 §12.5.1, with wildcards and `q=0` exclusions, by negotiator). Clients
 * must list both `application/json` and `text/event-stream`; a missing or empty header is accepted
 * leniently as "either". Neither allowed → the caller answers 406.
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
  const types = new Negotiator({ headers: { accept } }).mediaTypes(ANSWER_TYPES);
  const json = types.includes(JSON_TYPE);
  const sse = types.includes(SSE_TYPE);
  return json && sse ? BOTH : Object.freeze({ json, sse });
}
