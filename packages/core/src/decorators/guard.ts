import type { Guard as GuardFn } from '../pipeline/guard.js';
import { GUARD_METADATA, recordSteps, type ClassOrMemberDecorator } from './step-records.js';

/**
 * Access checks for a tool, prompt or resource (on a member) or every one of a class (on the
 * class), after the server's `guards` option and before any middleware; the first refusal wins.
 */
export function Guard(...guards: GuardFn[]): ClassOrMemberDecorator {
  return recordSteps(GUARD_METADATA, guards, 'Guard');
}
