// One official MCP client walks through the weather example and prints one JSON line of what it
// saw: tools listed and called, a resource read, a prompt got, an eliciting tool answered by the
// client's own handler (with progress), and a tools/list_changed notification.
//   node sdk-walkthrough.mjs <v1 | v2 | v2-modern> <stdio | http> <command-or-url> [args...]
// v1 = @modelcontextprotocol/sdk 1.x; v2 = @modelcontextprotocol/client in its default (legacy)
// mode; v2-modern = the same client pinned to 2026-07-28.
import { v1Transport } from './v1-transport.mjs';

const [flavour, transportKind, target, ...args] = process.argv.slice(2);

const elicited = [];
const answerElicitation = async (request) => {
  elicited.push(request.params.message);
  return { action: 'accept', content: { days: 2 } };
};

/**
 * The protocol version in the server's initialize answer, as the client received it: the v1
 * client keeps it nowhere over stdio, so the walkthrough reads it off the transport.
 */
let answeredVersion;
function observeInitialize(transport) {
  const start = transport.start.bind(transport);
  transport.start = () => {
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (answeredVersion === undefined && typeof message?.result?.protocolVersion === 'string') answeredVersion = message.result.protocolVersion;
      deliver?.(message, extra);
    };
    return start();
  };
}

/**
 * Hands the client one message per macrotask, in the order they came. The SDKs run a notification's
 * handler in a microtask but settle a response at once, so a progress notification read in the same
 * chunk as the response after it reached a handler already removed: on a busy machine the client
 * read both at once (the example's 20 ms between them is no guarantee) and saw progress 1 of 2.
 */
function oneMessagePerTask(transport) {
  const start = transport.start.bind(transport);
  transport.start = () => {
    const deliver = transport.onmessage;
    const queue = [];
    const next = () => {
      deliver?.(...queue.shift());
      if (queue.length > 0) setImmediate(next);
    };
    transport.onmessage = (message, extra) => {
      if (queue.push([message, extra]) === 1) setImmediate(next);
    };
    return start();
  };
}

let listChanged;
const changed = new Promise((resolve) => (listChanged = resolve));

async function v1Client() {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { ElicitRequestSchema, ToolListChangedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const client = new Client({ name: 'decorum-interop-v1', version: '0.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, answerElicitation);
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => listChanged('tools'));
  const transport = await v1Transport(transportKind, target, args);
  observeInitialize(transport);
  return { client, transport };
}

async function v2Client(modern) {
  const { Client } = await import('@modelcontextprotocol/client');
  const client = new Client(
    { name: `decorum-interop-${modern ? 'v2-modern' : 'v2'}`, version: '0.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      listChanged: { tools: { onChanged: () => listChanged('tools') } },
    },
  );
  client.setRequestHandler('elicitation/create', answerElicitation);
  const transport =
    transportKind === 'stdio'
      ? new (await import('@modelcontextprotocol/client/stdio')).StdioClientTransport({
          command: target,
          args,
          env: { ...process.env, DECORUM_LOG_LEVEL: 'warn' },
          stderr: 'ignore',
        })
      : new (await import('@modelcontextprotocol/client')).StreamableHTTPClientTransport(new URL(target));
  return { client, transport };
}

const { client, transport } = flavour === 'v1' ? await v1Client() : await v2Client(flavour === 'v2-modern');
oneMessagePerTask(transport);
try {
  await client.connect(transport);
  const tools = (await client.listTools()).tools.map((t) => t.name);
  const current = await client.callTool({ name: 'weather_current', arguments: { location: 'Tokyo' } });
  const resource = await client.readResource({ uri: 'weather://cities' });
  const prompt = await client.getPrompt({ name: 'weather_report', arguments: { location: 'London' } });
  const progress = [];
  const withProgress = { onprogress: (p) => progress.push(p.progress) };
  const forecastCall = { name: 'weather_forecast', arguments: { location: 'London' } };
  // v1 takes a result schema before the options; v2 takes the options second.
  const forecast = flavour === 'v1' ? await client.callTool(forecastCall, undefined, withProgress) : await client.callTool(forecastCall, withProgress);
  await client.callTool({ name: 'weather_alerts_toggle', arguments: {} });
  // Waits for the notification; the bound only turns a lost one into a readable 'timeout' on a busy machine.
  const notified = await Promise.race([changed, new Promise((resolve) => setTimeout(() => resolve('timeout'), 30_000).unref())]);
  const after = (await client.listTools()).tools.map((t) => t.name);
  process.stdout.write(
    `${JSON.stringify({
      protocolVersion: client.getNegotiatedProtocolVersion?.() ?? answeredVersion,
      tools,
      current: current.content[0].text,
      resource: resource.contents[0].text,
      prompt: prompt.messages[0].content.text,
      forecast: forecast.content[0].text,
      elicited,
      progress,
      notified,
      after,
    })}\n`,
  );
} catch (error) {
  process.stdout.write(`${JSON.stringify({ failed: String(error?.stack ?? error) })}\n`);
  process.exitCode = 1;
} finally {
  await client.close().catch(() => {});
}
