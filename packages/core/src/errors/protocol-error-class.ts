import { McpProtocolError } from './mcp-protocol-error.js';

/**
 * What {@link protocolError} makes: a concrete {@link McpProtocolError} with a fixed `code`, a default
 * message, and a constructor whose arguments after the message become `data`.
 */
export interface ProtocolErrorClass<Code extends number, Args extends unknown[], Data> {
  /** `message` defaults to the class's standard message; `args` make `data`. */
  new (message?: string, ...args: Args): McpProtocolError & { readonly code: Code; readonly data: Data };
  /** The JSON-RPC error code of every instance. */
  readonly code: Code;
}

/**
 * One row of the protocol error table: the base class of an error with JSON-RPC `code`, `defaultMessage`
 * when none is given, and `toData` from the constructor's arguments after the message (by default the
 * one optional `data`). Declare the error as `class X extends protocolError(…) {}`.
 */
export function protocolError<const Code extends number, Args extends unknown[] = [data?: unknown], Data = unknown>(
  code: Code,
  defaultMessage: string,
  toData?: (...args: Args) => Data,
): ProtocolErrorClass<Code, Args, Data> {
  class ProtocolErrorOfCode extends McpProtocolError {
    static readonly code = code;
    readonly code = code;
    declare readonly data: Data;
    constructor(message?: string, ...args: Args) {
      super(message ?? defaultMessage, toData ? toData(...args) : args[0]);
    }
  }
  return ProtocolErrorOfCode;
}
