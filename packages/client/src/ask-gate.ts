import type { InputRequest, JsonObject, JsonRpcRequest } from '@decorum/core';
import { ASK_METHODS, AskBudget, askLimitsOf, type AskLimits } from './ask-limits.js';
import { checkElicitation } from './elicitation-check.js';
import { AskLimitError, askRefusalOnWire } from './errors.js';
import { answerInput, type InputContext, type InputHandlers } from './input-handlers.js';

/**
 * The client's side of every ask a server makes, in either era: what the client did not offer is
 * refused, the rest is counted against the ask limits, and only then does a handler run.
 */
export class AskGate {
  readonly limits: Readonly<Required<AskLimits>>;
  private readonly budget: AskBudget;
  private readonly who: Pick<InputContext, 'server'>;

  constructor(
    private readonly handlers: InputHandlers,
    options: AskLimits,
    server: string | undefined,
  ) {
    this.limits = askLimitsOf(options);
    this.budget = new AskBudget(this.limits);
    this.who = server === undefined ? {} : { server };
  }

  /** A legacy server's request: answered, or refused at once with a JSON-RPC error the server can read. */
  async answerRequest(request: JsonRpcRequest): Promise<JsonObject> {
    const { method, params } = request;
    const context: InputContext = { method, ...this.who };
    if (!ASK_METHODS.has(method)) return answerInput(this.handlers, method, params, context);
    let release: (() => void) | undefined;
    try {
      if (method === 'elicitation/create') checkElicitation(this.handlers, params);
      release = this.budget.enter(method);
      this.budget.spend(method, 1);
      return await answerInput(this.handlers, method, params, context);
    } catch (error) {
      throw askRefusalOnWire(error);
    } finally {
      release?.();
    }
  }

  /**
   * One `input_required` round's asks: all checked and counted (`asked` before this round, for
   * the per-call limit) before any handler runs, then answered at most `maxConcurrentAsks` at once.
   */
  async answerRound(
    method: string,
    target: string | undefined,
    inputRequests: Record<string, InputRequest>,
    asked: number,
  ): Promise<Record<string, JsonObject>> {
    const asks = Object.entries(inputRequests);
    const { maxInputRequestsPerRound, maxAsksPerCall } = this.limits;
    if (asks.length > maxInputRequestsPerRound)
      throw new AskLimitError('maxInputRequestsPerRound', maxInputRequestsPerRound, `${asks.length} inputs in one round of ${method}`);
    if (asked + asks.length > maxAsksPerCall) throw new AskLimitError('maxAsksPerCall', maxAsksPerCall, `${asked + asks.length} inputs over one ${method}`);
    for (const [, ask] of asks) if (ask.method === 'elicitation/create') checkElicitation(this.handlers, ask.params as JsonObject | undefined);
    const counted = asks.filter(([, ask]) => ASK_METHODS.has(ask.method)).length;
    if (counted > 0) this.budget.spend(`${counted} inputs for ${method}`, counted);
    const answers = await Promise.all(
      asks.map(async ([key, ask]) => {
        const release = await this.budget.wait();
        try {
          return [key, await answerInput(this.handlers, ask.method, ask.params as JsonObject | undefined, { method, target, key, ...this.who })] as const;
        } finally {
          release();
        }
      }),
    );
    return Object.fromEntries(answers);
  }
}
