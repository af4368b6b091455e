// The official Tasks client (@modelcontextprotocol/ext-tasks, pinned: createTaskSessionFromClient
// over the official v2 client @modelcontextprotocol/client) running one tool on a Decorum server
// and answering its input_required through onInputRequest. Prints one JSON line.
//   node ext-tasks-client.mjs modern http <url> <tool> <arguments JSON>
//   node ext-tasks-client.mjs legacy http <url> <tool> <arguments JSON>
//   node ext-tasks-client.mjs legacy stdio <tool> <arguments JSON> <command> [args...]
// On 2026-07-28 the package needs `rawDispatch` (its task wire shapes bypass the SDK client's
// codecs) and `v2RequestFraming` (the per-request _meta): rawDispatch POSTs to the endpoint with
// the 2026-07-28 headers (Mcp-Method, Mcp-Name: the tool's name or the task's id).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createTaskSessionFromClient, resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';

const [era, mode, ...rest] = process.argv.slice(2);
const [target, tool, argsJson, ...command] = mode === 'http' ? rest : [undefined, ...rest];
const protocolVersion = era === 'modern' ? '2026-07-28' : '2025-11-25';
const clientInfo = { name: 'decorum-ext-tasks-interop', version: '0.0.0' };
const clientCapabilities = { elicitation: { form: {} } };
const client = new Client(clientInfo, {
  capabilities: clientCapabilities,
  versionNegotiation: { mode: era === 'modern' ? { pin: protocolVersion } : 'legacy' },
});
const transport =
  mode === 'http'
    ? new StreamableHTTPClientTransport(new URL(target))
    : new StdioClientTransport({ command: command[0], args: command.slice(1), env: { ...process.env, DECORUM_LOG_LEVEL: 'warn' }, stderr: 'ignore' });

let nextId = 0;
/** One 2026-07-28 request POSTed as it is; the answer read from JSON or from the SSE stream. */
async function rawDispatch(request, options = {}) {
  const id = `ext-${++nextId}`;
  const params = request.params ?? {};
  const name = request.method === 'tools/call' ? params.name : params.taskId;
  const headers = new Headers({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': protocolVersion,
    'mcp-method': request.method,
    ...(typeof name === 'string' && { 'mcp-name': name }),
  });
  // The package's own routing headers (it sets Mcp-Name on task follow-ups) replace ours, whatever their case.
  for (const [key, value] of Object.entries(options.context?.headers ?? {})) headers.set(key, value);
  const response = await fetch(target, { method: 'POST', signal: options.signal, headers, body: JSON.stringify({ ...request, jsonrpc: '2.0', id }) });
  const text = await response.text();
  const messages = (response.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice(5)))
    : [JSON.parse(text)];
  const answer = messages.find((message) => message.id === id && ('result' in message || 'error' in message));
  if (!answer) throw new Error(`HTTP ${response.status} without an answer to ${request.method}: ${text.slice(0, 200)}`);
  return 'error' in answer ? { kind: 'error', error: answer.error } : { kind: 'result', result: answer.result };
}

const asked = [];
const events = [];
try {
  await client.connect(transport);
  const session = createTaskSessionFromClient(client, {
    endpointId: `decorum-${era}`,
    ...(era === 'modern' && { rawDispatch, v2RequestFraming: { protocolVersion, clientInfo, clientCapabilities } }),
    onInputRequest: async (request) => {
      asked.push({ kind: request.kind, message: request.params.message });
      const properties = Object.keys(request.params.requestedSchema?.properties ?? {});
      return { action: 'accept', content: Object.fromEntries(properties.map((key) => [key, key === 'confirm' || key === 'ok' ? true : 'Alice'])) };
    },
  });
  try {
    const execution = await session.callTool(tool, JSON.parse(argsJson));
    const { outcome } = await execution.settle({
      onEvent: (event) => events.push(event.type === 'task' ? event.task.status : `outcome:${event.outcome.status}`),
    });
    process.stdout.write(`${JSON.stringify({ kind: execution.kind, result: resultFromTaskOutcome(outcome), events, asked })}\n`);
  } finally {
    await session.close();
  }
} catch (error) {
  process.stdout.write(`${JSON.stringify({ failed: String(error?.stack ?? error), events, asked })}\n`);
  process.exitCode = 1;
} finally {
  await client.close().catch(() => {});
}
