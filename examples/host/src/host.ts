/**
 * The host example: one McpHost over three servers — the weather example over stdio (through
 * `mcp-serve`), the files-wizard example over Streamable HTTP (started here on 127.0.0.1), and the
 * official server-everything (SDK v1, legacy era) over stdio. It prints the merged tool list,
 * routes a read-only call of a server whose annotations it trusts (its own two), and asks on the
 * terminal before a destructive one.
 *
 *   npm run build && node examples/host/dist/host.js
 */
import { createInterface } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import { McpHost, type ToolCall } from '@decorum/client/host';
import { serveHttp } from '@decorum/fastify';
import { FilesWizard } from '@decorum-examples/files-wizard';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

const terminal = createInterface({ input: process.stdin, output: process.stdout, terminal: false });
const lines = terminal[Symbol.asyncIterator]();
async function ask(question: string): Promise<string> {
  process.stdout.write(question);
  const next = await lines.next();
  return next.done ? '' : next.value.trim();
}

/** Shows the call (server, tool, arguments) before it is sent, and lets the user say no (HC-04). */
async function approve(call: ToolCall): Promise<boolean> {
  const kind = call.annotations?.destructiveHint === false ? 'a call that changes things' : 'a DESTRUCTIVE call';
  const answer = await ask(`\n${call.server} wants ${kind}: ${call.name}(${JSON.stringify(call.arguments)}). Allow? [y/N] `);
  return /^y(es)?$/i.test(answer);
}

// A short grace: at exit nothing is in flight that deserves to be waited for.
const files = await serveHttp([FilesWizard], { host: '127.0.0.1', port: 0, logLevel: 'warn', shutdownGraceMs: 500 });
const host = new McpHost({
  approve,
  // files-wizard confirms deletions by MRTR elicitation; the user already said yes above.
  elicitation: async () => ({ action: 'accept', content: { confirm: true } }),
  roots: () => [],
  onWarning: (message) => process.stderr.write(`host: ${message}\n`),
});
try {
  // Our own servers: their readOnlyHint may skip the question (a stranger's may not).
  await host.connect('weather', { command: process.execPath, args: [`${ROOT}packages/cli/dist/bin.js`, `${ROOT}examples/weather/dist/weather.js`], env: { DECORUM_LOG_LEVEL: 'warn' }, stderr: 'ignore' }, { trustAnnotations: true });
  await host.connect('files', { url: files.url }, { trustAnnotations: true });
  await host.connect('everything', { command: process.execPath, args: [`${ROOT}node_modules/@modelcontextprotocol/server-everything/dist/index.js`, 'stdio'], stderr: 'ignore' });
  for (const status of host.status()) console.log(`connected ${status.name} (${status.era})`);

  const tools = await host.listTools();
  console.log(`\n${tools.length} tools:`);
  for (const tool of tools) console.log(`  ${tool.name}${tool.annotations?.readOnlyHint ? ' (read-only)' : ''}`);

  const weather = await host.callTool('weather_weather_current', { location: 'London' });
  console.log(`\nweather_weather_current → ${weather.content.map((b) => ('text' in b ? b.text : b.type)).join(' ')}`);

  try {
    const deleted = await host.callTool('files_delete_file', { path: '/notes/ideas.md' });
    console.log(`files_delete_file → ${deleted.content.map((b) => ('text' in b ? b.text : b.type)).join(' ')}`);
  } catch (error) {
    console.log(`files_delete_file → ${(error as Error).message}`);
  }
  const left = await host.callTool('files_list_files');
  console.log(`files_list_files → ${left.content.map((b) => ('text' in b ? b.text : b.type)).join(', ').replace(/\n/g, ', ')}`);
} finally {
  terminal.close();
  await host.close();
  await files.close();
}
