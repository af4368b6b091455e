import { CrossOriginRedirectError, TooManyRedirectsError } from '../errors.js';

/** The statuses `fetch` follows as redirects. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Those that repeat the request as it was; after the others `fetch` sends a GET without the message. */
const KEEPING_METHOD = new Set([307, 308]);
/** How many redirects one request follows at most, as `fetch` does. */
const MAX_REDIRECTS = 20;

/**
 * `fetch` that follows redirects within the endpoint's origin only. A redirect to another origin
 * is refused with {@link CrossOriginRedirectError} before anything is sent there: `fetch` drops
 * `Authorization` across origins but would send the connection's other headers (an `x-api-key`)
 * and the message itself. Only a GET follows a 301, 302 or 303 (after which `fetch` would send a
 * POST as a GET without its message); for another method that redirect is the answer.
 */
export async function sameOriginFetch(fetchImpl: typeof fetch, url: URL, init: RequestInit): Promise<Response> {
  let target = url;
  const request: RequestInit = { ...init, redirect: 'manual' };
  for (let hops = 0; ; hops++) {
    const response = await fetchImpl(target, request);
    const location = REDIRECTS.has(response.status) ? response.headers.get('location') : null;
    if (location === null) return response;
    const next = new URL(location, target);
    if (next.origin !== url.origin) {
      await response.body?.cancel().catch(() => {});
      throw new CrossOriginRedirectError(target.href, next.href);
    }
    if (!KEEPING_METHOD.has(response.status) && request.method !== 'GET') return response;
    await response.body?.cancel().catch(() => {});
    if (hops === MAX_REDIRECTS) throw new TooManyRedirectsError(url.href, MAX_REDIRECTS);
    target = next;
  }
}
