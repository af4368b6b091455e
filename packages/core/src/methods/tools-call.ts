import { InternalError, McpProtocolError } from '../errors/protocol-errors.js';
import { ToolError } from '../errors/tool-error.js';
import { UserError } from '../errors/user-error.js';
import { defineMethod, type MethodCall } from './method.js';
import { isThenable } from '../async/thenable.js';
import type { CallToolResult, Result } from '../protocol/types.js';
import type { ToolEntry } from '../registry/entries.js';
import { toolTarget, type ToolTarget } from '../registry/targets.js';
import { isCallToolResult, structuredToolResult, toolErrorResult, toolResultFromValue } from '../results/tool-result.js';
import { formatIssues, type ValidationIssue, type ValidationOutcome } from '../schema/issues.js';
import type { HandlerOutcome } from '../asks/handler-asks.js';
import { invokeHandler } from './invoke-handler.js';

/** `_meta` key under which invalid-argument issues are always reported (never clashes with outputSchema). */
export const VALIDATION_META_KEY = 'dev.decorum/validation';

/**
 * Invalid arguments are a tool result the model can act on (not a protocol error): the text lists
 * every failing field, and the same issues come as data in `_meta` — and as `structuredContent`
 * when the tool declares no `outputSchema` that they could break.
 */
function invalidArguments(tool: ToolEntry, issues: ValidationIssue[]): CallToolResult & Result {
  const result = toolErrorResult(`Invalid arguments for tool "${tool.name}":\n${formatIssues(issues, null)}`, tool.output ? undefined : { issues });
  result._meta = { [VALIDATION_META_KEY]: { issues } };
  return result;
}

/**
 * `tools/call`: validate, run, shape. Steps that answer synchronously (a compiled validator, a
 * plain handler) continue at once; only a promise is waited for, so a synchronous tool's call
 * makes no promise of its own here.
 */
export const toolsCallMethod = defineMethod<ToolTarget>({
  method: 'tools/call',
  served: (s) => s.registry.hasTools,
  resolve: toolTarget,
  target: (tool) => tool,
  run(call) {
    const checkingInput = call.resolved.entry.input.validate(call.params.arguments ?? {});
    return isThenable(checkingInput) ? Promise.resolve(checkingInput).then((outcome) => invoke(call, outcome)) : invoke(call, checkingInput);
  },
});

type ToolCall = MethodCall<ToolTarget>;

/** Runs the tool on valid arguments; invalid ones are a result the model can act on. */
function invoke(call: ToolCall, outcome: ValidationOutcome<unknown>): Result | Promise<Result> {
  const { params } = call;
  const tool = call.resolved.entry;
  if (!outcome.ok) return invalidArguments(tool, outcome.issues);
  let ran;
  try {
    // An unanswered ctx.elicit/sample/roots ends the round here, before errors become isError.
    ran = invokeHandler(call, tool.name, params.arguments ?? {}, (asks) => tool.invoke(outcome.value, call.context(asks)));
  } catch (error) {
    return toolFailed(call, error);
  }
  if (isThenable(ran)) {
    return Promise.resolve(ran).then(
      (settled) => shape(call, settled),
      (error: unknown) => toolFailed(call, error),
    );
  }
  return shape(call, ran);
}

/** A tool that threw: its `UserError` is the model's to read; a protocol error stays one; anything else is logged and hidden. */
function toolFailed(call: ToolCall, error: unknown): Result {
  const tool = call.resolved.entry;
  if (error instanceof UserError) {
    const structured = error instanceof ToolError && !tool.output ? error.structuredContent : undefined;
    return toolErrorResult(error.message, structured);
  }
  if (error instanceof McpProtocolError) throw error;
  call.log.error({ err: error, tool: tool.name }, 'tool threw');
  return toolErrorResult(`Tool "${tool.name}" failed with an internal error.`);
}

/** The tool's value as a result; with an `outputSchema`, checked against it first. */
function shape(call: ToolCall, ran: HandlerOutcome<unknown>): Result | Promise<Result> {
  if (ran.kind === 'input_required') return ran.result;
  const tool = call.resolved.entry;
  const value = ran.value;
  if (!tool.output) return toolResultFromValue(value, tool.name);
  // A tool with an outputSchema may still answer with a full CallToolResult (e.g. isError).
  if (isCallToolResult(value) && (value.isError || value.structuredContent === undefined)) return toolResultFromValue(value, tool.name);
  const structured = isCallToolResult(value) ? value.structuredContent : value;
  const checkingOutput = tool.output.validate(structured);
  return isThenable(checkingOutput)
    ? Promise.resolve(checkingOutput).then((checked) => structuredResult(call, value, checked))
    : structuredResult(call, value, checkingOutput);
}

/** A result whose structured content passed the `outputSchema` (-32603 when it did not: the tool's bug, logged). */
function structuredResult(call: ToolCall, value: unknown, checked: ValidationOutcome<unknown>): Result {
  const tool = call.resolved.entry;
  if (!checked.ok) {
    call.log.error({ tool: tool.name, issues: checked.issues }, 'tool result does not match its outputSchema');
    throw new InternalError(`Tool "${tool.name}" produced a result that does not match its outputSchema`);
  }
  // One stringify gives both the plain data (class instances, Dates → JSON) and the text block.
  const json = JSON.stringify(checked.value);
  const plain: unknown = JSON.parse(json);
  return isCallToolResult(value) ? { resultType: undefined, ...value, structuredContent: plain } : structuredToolResult(plain, json);
}
