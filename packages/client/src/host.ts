/**
 * @decorum/client/host — `McpHost`, which connects N servers for one model: their tools, prompts
 * and resources merged under namespaced names (`github_search`), tool calls gated by an approval
 * policy, and adapters that hand the merged tools to the Anthropic and OpenAI APIs. The client it
 * is built on is `@decorum/client`.
 *
 * @module \@decorum/client/host
 */
// The host, its options and what it lists.
export {
  McpHost,
  type McpHostOptions,
  type HostServerOptions,
  type HostTool,
  type HostPrompt,
  type HostResource,
  type ServerStatus,
  type HostTaskStatus,
} from './host/host.js';
// Approving tool calls: what the host's `approve` function is given and answers, and the policy that decides when it is asked.
export type { ToolCall, Approve, ApprovalAnswer, ApprovalPolicy } from './host/approval.js';
// Handing the merged tools to the Anthropic and OpenAI APIs.
export { toAnthropicTools, runAnthropicToolUse, type AnthropicTool, type AnthropicToolUse, type AnthropicToolResult } from './host/adapters/anthropic.js';
export { toOpenAiTools, runOpenAiToolCall, type OpenAiFunctionTool, type OpenAiToolCall, type OpenAiToolMessage } from './host/adapters/openai.js';
