import { createServer, DecorumStartupError } from '@decorum/core';
import { quietLogger } from './engine-harness.js';

/** The start-up error `createServer` throws for `targets`, or `undefined` when they start; any other error is rethrown. */
export function startupError(...targets: Function[]): DecorumStartupError | undefined {
  try {
    createServer(targets, { logger: quietLogger });
    return undefined;
  } catch (error) {
    if (error instanceof DecorumStartupError) return error;
    throw error;
  }
}
