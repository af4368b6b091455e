import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';

/** The spec's tool-name rule: 1–128 characters of A–Z, a–z, 0–9, `_`, `-`, `.`. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Refuses a tool name the spec's naming rules do not allow (clients may drop such tools). */
export function checkToolName(name: string, source: string): void {
  if (!TOOL_NAME.test(name)) {
    throw new DecorumStartupError(
      StartupErrorCode.INVALID_NAME,
      `tool name ${JSON.stringify(name)} (${source}) breaks the MCP naming rules: use 1–128 characters of A-Z, a-z, 0-9, "_", "-" or "."; pass name: to @Tool to rename it`,
    );
  }
}

/** Tracks names of one kind and refuses a second declaration, naming both places. */
export class NameLedger {
  private readonly seen = new Map<string, string>();
  constructor(private readonly kind: string) {}

  claim(name: string, source: string): void {
    const first = this.seen.get(name);
    if (first !== undefined) {
      throw new DecorumStartupError(
        StartupErrorCode.DUPLICATE_NAME,
        `${this.kind} ${JSON.stringify(name)} is declared twice: by ${first} and by ${source}; rename one of them (name: option)`,
      );
    }
    this.seen.set(name, source);
  }
}
