import type { RequestContext } from '../context/request-context.js';
import { HandlerContext } from '../asks/handler-context.js';

/**
 * What an extension's `around` step gave the handler's derived call under `key`
 * (`DerivedCallOptions.data`), read from the handler's `ctx`; `undefined` outside a derived call.
 */
export function extensionData<T = unknown>(ctx: RequestContext, key: symbol): T | undefined {
  return ctx instanceof HandlerContext ? (ctx.extensionData(key) as T | undefined) : undefined;
}
