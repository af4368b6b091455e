// The official MCP TypeScript client (@modelcontextprotocol/client, pinned) talking to a Decorum
// server, pinned to protocol 2026-07-28. Spawned by test/interop/sdk-client.test.ts; prints one JSON line.
//   node sdk-client.mjs <weather|fixture> http <url>
//   node sdk-client.mjs <weather|fixture> stdio <command> [args...]
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const [scenario, mode, target, ...args] = process.argv.slice(2);
const client = new Client({ name: 'decorum-interop', version: '0.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
const transport =
  mode === 'http'
    ? new StreamableHTTPClientTransport(new URL(target))
    : new StdioClientTransport({ command: target, args, env: { ...process.env, DECORUM_LOG_LEVEL: 'warn' }, stderr: 'ignore' });

async function errorOf(promise) {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return { code: error.code, message: error.message };
  }
}

/** The weather example: list, call, a tool error, an unknown tool, a prompt and a resource. */
async function weather() {
  return {
    tools: (await client.listTools()).tools,
    call: await client.callTool({ name: 'weather_current', arguments: { location: 'London', units: 'imperial' } }),
    unknownCity: await client.callTool({ name: 'weather_current', arguments: { location: 'Atlantis' } }),
    unknownTool: await errorOf(client.callTool({ name: 'no_such_tool', arguments: {} })),
    prompt: await client.getPrompt({ name: 'weather_report', arguments: { location: 'Tokyo' } }),
    resource: await client.readResource({ uri: 'weather://cities' }),
  };
}

/** The HTTP fixture: progress over SSE, and arguments the client mirrors into Mcp-Param-* headers. */
async function fixture() {
  const progress = [];
  const counted = await client.callTool({ name: 'count', arguments: { steps: 3 } }, { onprogress: (p) => progress.push(p) });
  await client.listTools(); // the client learns the x-mcp-header annotations from the list
  const located = await client.callTool({ name: 'locate', arguments: { region: 'eu-west1', shard: 7, note: ' Grüße, 世界 ' } });
  return { counted, progress, located };
}

try {
  await client.connect(transport);
  const outcome = scenario === 'fixture' ? await fixture() : await weather();
  process.stdout.write(
    `${JSON.stringify({ era: client.getProtocolEra(), protocolVersion: client.getNegotiatedProtocolVersion(), serverInfo: client.getServerVersion(), ...outcome })}\n`,
  );
} catch (error) {
  process.stdout.write(`${JSON.stringify({ failed: String(error?.stack ?? error) })}\n`);
  process.exitCode = 1;
} finally {
  await client.close().catch(() => {});
}
