/**
 * The session way of answering asks (the legacy era's): each `ctx.elicit`, `ctx.sample` and
 * `ctx.roots` is a real server→client request on the session, awaited in place. There is no replay, so
 * `ctx.once` simply runs its function once.
 */
import { elicitAsk, isElicitAnswer, isRootsAnswer, isSampleAnswer, missingCapability, rootsAsk, sampleAsk, type Ask } from '../ask-requests.js';
import type { AskingCall, AskSeam, AskTarget, HandlerAsks, HandlerOutcome } from '../handler-asks.js';
import { isThenable } from '../../async/thenable.js';
import { ClientRequestFailedError, MissingRequiredClientCapabilityError } from '../../errors/protocol-errors.js';
import { checkContent } from '../elicitation-schema.js';
import type { CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, InputOptions, Root } from '../ask-types.js';
import type { ClientCapabilities, JsonObject } from '../../protocol/types.js';
import type { ClientRequestOutlet, ClientRequests } from './client-requests.js';
import { requestedSchemaFor2025_06_18 } from './elicitation-schema-downgrade.js';
import { revisionHas } from '../../era/revision-features.js';
import { randomUUID } from 'node:crypto';

/** What the asks need to know of their session. */
export interface AskingSession {
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly requests: Pick<ClientRequests, 'request'>;
  /** Where the session's own messages go (stdout, the GET stream): asks that outlive their request use it. */
  readonly outlet: ClientRequestOutlet;
}

const WHERE = 'the client at initialize';

class SessionAsks implements HandlerAsks {
  constructor(
    private readonly session: AskingSession,
    private readonly outlet: ClientRequestOutlet,
    private readonly call: AskingCall,
  ) {}

  private send(ask: Extract<Ask, { ok: true }>, params: JsonObject | undefined): Promise<JsonObject> {
    return this.session.requests.request(ask.request.method, params, this.outlet, this.call.signal);
  }

  async elicit(params: ElicitParams, options?: InputOptions): Promise<ElicitResult | undefined> {
    const ask = elicitAsk(params, this.session.clientCapabilities);
    if (!ask.ok) return missingCapability(ask, options, WHERE);
    const sent = { ...(ask.request as { params: JsonObject }).params };
    // `mode` arrived in 2025-11-25 (and url mode with it, which needs an elicitationId); older
    // revisions' capabilities offer forms only (legacy-capabilities.ts).
    const version = this.session.protocolVersion;
    if (!revisionHas(version, 'elicitationModes')) delete sent.mode;
    else if (sent.mode === 'url') sent.elicitationId = randomUUID();
    if (!revisionHas(version, 'elicitationSchemaExtensions') && sent.requestedSchema) {
      const downgraded = requestedSchemaFor2025_06_18(sent.requestedSchema as JsonObject);
      if (!downgraded.ok) {
        if (options?.optional) return undefined;
        throw new MissingRequiredClientCapabilityError(
          `This form's field "${downgraded.property}" is a multi-select, which MCP ${version} (the session's revision) cannot carry; a client on 2025-11-25 can take it`,
          { elicitation: { form: {} } },
        );
      }
      sent.requestedSchema = downgraded.schema;
    }
    const answer = await this.send(ask, sent);
    if (!isElicitAnswer(answer))
      throw new ClientRequestFailedError('The client answered elicitation/create with something that is not an ElicitResult ({ action, content? })');
    const { action } = answer;
    if (action !== 'accept' || !ask.schema) return { action };
    const checked = checkContent(ask.schema, answer.content ?? {});
    if (!checked.ok) {
      throw new ClientRequestFailedError(
        `The client accepted elicitation/create with content that does not match requestedSchema: ${checked.issues.map((i) => `${i.pointer || '/'} ${i.message}`).join('; ')}`,
      );
    }
    return { action, content: checked.value as ElicitResult['content'] };
  }

  async sample(params: CreateMessageParams, options?: InputOptions): Promise<CreateMessageResult | undefined> {
    const ask = sampleAsk(params, this.session.clientCapabilities);
    if (!ask.ok) return missingCapability(ask, options, WHERE);
    const answer = await this.send(ask, params);
    if (!isSampleAnswer(answer))
      throw new ClientRequestFailedError(
        'The client answered sampling/createMessage with something that is not a CreateMessageResult ({ role, content, model })',
      );
    return answer as CreateMessageResult;
  }

  async roots(options?: InputOptions): Promise<Root[] | undefined> {
    const ask = rootsAsk(this.session.clientCapabilities);
    if (!ask.ok) return missingCapability(ask, options, WHERE);
    const answer = await this.send(ask, undefined);
    if (!isRootsAnswer(answer))
      throw new ClientRequestFailedError('The client answered roots/list with something that is not a ListRootsResult ({ roots: [{ uri }] })');
    return answer.roots as Root[];
  }

  async once<T>(_name: string, fn: () => T | Promise<T>): Promise<T> {
    return fn();
  }
}

/** The seam of one legacy request: its asks go out through `outlet` (stdout, or the POST's SSE stream). */
export class SessionAskSeam implements AskSeam {
  constructor(
    readonly session: AskingSession,
    /** Where this request's asks go. */
    readonly outlet: ClientRequestOutlet,
  ) {}

  // Not async: a synchronous handler is answered synchronously, as by the MRTR seam.
  run<T>(call: AskingCall, _target: AskTarget, invoke: (asks: HandlerAsks) => T | Promise<T>): Promise<HandlerOutcome<T>> | HandlerOutcome<T> {
    const returned = invoke(new SessionAsks(this.session, this.outlet, call));
    if (isThenable(returned)) return Promise.resolve(returned).then((value) => ({ kind: 'value', value, retry: false }));
    return { kind: 'value', value: returned, retry: false };
  }
}
