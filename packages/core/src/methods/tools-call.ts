import { InternalError, InvalidParamsError, McpProtocolError } from '../errors/protocol-errors.js';
import { ToolError } from '../errors/tool-error.js';
import { UserError } from '../errors/user-error.js';
import { defineMethod } from '../engine/method.js';
import { isThenable } from '../engine/thenable.js';
import type { CallToolResult } from '../protocol/types.js';
import type { ToolEntry } from '../registry/entries.js';
import { isCallToolResult, structuredToolResult, toolErrorResult, toolResultFromValue } from '../results/tool-result.js';
import { formatIssues, type ValidationIssue } from '../validation/issues.js';
import { invokeHandler } from './invoke-handler.js';
import { optionalObject, requireString } from './params.js';

/** `_meta` key under which invalid-argument issues are always reported (never clashes with outputSchema). */
export const VALIDATION_META_KEY = 'dev.decorum/validation';

/**
 * Invalid arguments are a tool result the model can act on (not a protocol error): the text lists
 * every failing field, and the same issues come as data in `_meta` — and as `structuredContent`
 * when the tool declares no `outputSchema` that they could break.
 */
function invalidArguments(tool: ToolEntry, issues: ValidationIssue[]): CallToolResult {
  const result = toolErrorResult(`Invalid arguments for tool "${tool.name}":\n${formatIssues(issues, null)}`, tool.output ? undefined : { issues });
  result._meta = { [VALIDATION_META_KEY]: { issues } };
  return result;
}

/** `tools/call`: validate, run, shape. */
export const toolsCallMethod = defineMethod<ToolEntry>({
  method: 'tools/call',
  served: (s) => s.registry.hasTools,
  resolve(params, state) {
    const name = requireString(params, 'name', 'tools/call', 'the tool name');
    optionalObject(params, 'arguments', 'tools/call');
    const tool = state.registry.tools.get(name);
    if (!tool) throw new InvalidParamsError(`Unknown tool: ${name}`);
    return tool;
  },
  async run(call) {
    const { scope, params, target: tool } = call;
    // Compiled validators answer synchronously; only class-validator's path is a promise.
    const checkingInput = tool.input.validate(params.arguments ?? {});
    const outcome = isThenable(checkingInput) ? await checkingInput : checkingInput;
    if (!outcome.ok) return { resultType: 'complete', ...invalidArguments(tool, outcome.issues) };
    let value: unknown;
    try {
      // An unanswered ctx.elicit/sample/roots ends the round here, before errors become isError.
      const ran = await invokeHandler(call, tool.name, params.arguments ?? {}, () => tool.invoke(outcome.value, scope.context()));
      if (ran.kind === 'input_required') return ran.result;
      value = ran.value;
    } catch (error) {
      if (error instanceof UserError) {
        const structured = error instanceof ToolError && !tool.output ? error.structuredContent : undefined;
        return { resultType: 'complete', ...toolErrorResult(error.message, structured) };
      }
      if (error instanceof McpProtocolError) throw error;
      scope.log.error({ err: error, tool: tool.name }, 'tool threw');
      return { resultType: 'complete', ...toolErrorResult(`Tool "${tool.name}" failed with an internal error.`) };
    }
    if (!tool.output) return { resultType: 'complete', ...toolResultFromValue(value) };
    // A tool with an outputSchema may still answer with a full CallToolResult (e.g. isError).
    if (isCallToolResult(value) && (value.isError || value.structuredContent === undefined)) return { resultType: 'complete', ...value };
    const structured = isCallToolResult(value) ? value.structuredContent : value;
    const checkingOutput = tool.output.validate(structured);
    const checked = isThenable(checkingOutput) ? await checkingOutput : checkingOutput;
    if (!checked.ok) {
      scope.log.error({ tool: tool.name, issues: checked.issues }, 'tool result does not match its outputSchema');
      throw new InternalError(`Tool "${tool.name}" produced a result that does not match its outputSchema`);
    }
    // One stringify gives both the plain data (class instances, Dates → JSON) and the text block.
    const json = JSON.stringify(checked.value);
    const plain: unknown = JSON.parse(json);
    return { resultType: 'complete', ...(isCallToolResult(value) ? { ...value, structuredContent: plain } : structuredToolResult(plain, json)) };
  },
});
