import {
  MethodNotFoundError,
  type ClientCapabilities,
  type CreateMessageParams,
  type CreateMessageResult,
  type ElicitResult,
  type ElicitValue,
  type JsonObject,
  type Root,
} from '@decorum/core';
import { MissingInputHandlerError } from './errors.js';

/** What the server asks the user in an elicitation (form: a flat schema; url: a page to open). */
export type ElicitationRequest =
  | { mode?: 'form'; message: string; requestedSchema: JsonObject; [key: string]: unknown }
  | { mode: 'url'; message: string; url: string; [key: string]: unknown };

/** Where an ask came from, for the handler to show the user. */
export interface InputContext {
  /** The request that needs the input (`tools/call`, …), or the server's own request (legacy). */
  readonly method: string;
  /** The tool or prompt name, or resource URI, when there is one. */
  readonly target?: string;
  /** The key of the ask in `inputRequests` (modern) — absent for a legacy server request. */
  readonly key?: string;
  /**
   * Who asks: the name the host (or the client's `serverName` option) gives the server — never
   * the server's own claim in `serverInfo`, which any server may set to another's name.
   */
  readonly server?: string;
}

/**
 * The client's answers to what a server may ask: elicitation (the user), sampling (the model)
 * and roots. Both eras use the same handlers: modern `input_required` rounds and legacy server
 * requests. Only the capabilities of the handlers given are declared to the server.
 */
export interface InputHandlers {
  /** Asks the user (a form, or a URL to open); declares the `elicitation` capability. */
  elicitation?: (
    request: ElicitationRequest,
    context: InputContext,
  ) => Promise<ElicitResult<Record<string, ElicitValue>>> | ElicitResult<Record<string, ElicitValue>>;
  /** Declares URL-mode elicitation too (default: form only). */
  elicitationUrl?: boolean;
  /** Asks the model for a completion; declares the `sampling` capability. */
  sampling?: (request: CreateMessageParams, context: InputContext) => Promise<CreateMessageResult> | CreateMessageResult;
  /** Lists the roots (directories, projects) the server may work in; declares `roots`. */
  roots?: (context: InputContext) => Promise<Root[]> | Root[];
}

/** The client capabilities (modern `CC`) the handlers amount to. */
export function capabilitiesOf(handlers: InputHandlers): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  if (handlers.elicitation) capabilities.elicitation = handlers.elicitationUrl ? { form: {}, url: {} } : { form: {} };
  if (handlers.sampling) capabilities.sampling = {};
  if (handlers.roots) capabilities.roots = {};
  return capabilities;
}

/** Answers one ask (`elicitation/create`, `sampling/createMessage`, `roots/list`) with the handlers. */
export async function answerInput(handlers: InputHandlers, method: string, params: JsonObject | undefined, context: InputContext): Promise<JsonObject> {
  switch (method) {
    case 'elicitation/create':
      if (!handlers.elicitation) throw new MissingInputHandlerError(method);
      return (await handlers.elicitation((params ?? {}) as ElicitationRequest, context)) as unknown as JsonObject;
    case 'sampling/createMessage':
      if (!handlers.sampling) throw new MissingInputHandlerError(method);
      return await handlers.sampling((params ?? {}) as CreateMessageParams, context);
    case 'roots/list':
      if (!handlers.roots) throw new MissingInputHandlerError(method);
      return { roots: await handlers.roots(context) };
    case 'ping':
      return {};
    default:
      throw new MethodNotFoundError(`The client does not serve ${method}`);
  }
}
