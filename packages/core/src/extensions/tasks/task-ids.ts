import { randomBytes } from 'node:crypto';

/** A new task id: 256 random bits, base64url (43 characters). Without authentication it is the bearer token. */
export function newTaskId(): string {
  return randomBytes(32).toString('base64url');
}
