import type { Middleware } from '../pipeline/middleware.js';
import { recordSteps, USE_METADATA, type ClassOrMemberDecorator } from './step-records.js';

/**
 * Runs middleware around a tool, prompt or resource (on a member) or around every one of a class
 * (on the class). Order, outermost first: the server's `middleware` option, then the class's
 * `@Use`, then the member's; within one `@Use`, as written.
 */
export function Use(...middleware: Middleware[]): ClassOrMemberDecorator {
  return recordSteps(USE_METADATA, middleware, 'Use');
}
