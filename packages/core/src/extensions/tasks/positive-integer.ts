import { DecorumStartupError, StartupErrorCode } from '../../errors/startup-error.js';

/** `value` when it is a positive integer; otherwise the start-up error naming `owner`'s option `name`. */
export function positiveInteger(owner: string, name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new DecorumStartupError(StartupErrorCode.INVALID_NUMBER, `${owner}: ${name} must be a positive integer (got ${value})`);
  return value;
}
