// The official MCP TypeScript client (@modelcontextprotocol/client, pinned), with an elicitation
// handler, completing the files-wizard example's MRTR tools over stdio. Prints one JSON line.
//   node sdk-mrtr-client.mjs <command> [args...]
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const [command, ...args] = process.argv.slice(2);
const client = new Client(
  { name: 'decorum-mrtr-interop', version: '0.0.0' },
  { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
);
const asked = [];
client.setRequestHandler('elicitation/create', async (request) => {
  const { message, requestedSchema } = request.params;
  asked.push(message);
  const props = Object.keys(requestedSchema?.properties ?? {});
  if (props.includes('confirm')) return { action: 'accept', content: { confirm: true } };
  if (props.includes('people')) return { action: 'accept', content: { name: 'Ada', people: 3 } };
  if (props.includes('city')) return { action: 'accept', content: { city: 'Lisbon', season: 'spring' } };
  if (props.includes('book')) return { action: 'accept', content: { book: true, extras: ['insurance'] } };
  return { action: 'decline' };
});
const transport = new StdioClientTransport({ command, args, env: { ...process.env, DECORUM_LOG_LEVEL: 'warn' }, stderr: 'ignore' });

try {
  await client.connect(transport);
  const deleted = await client.callTool({ name: 'delete_file', arguments: { path: '/notes/ideas.md' } });
  const listed = await client.callTool({ name: 'list_files', arguments: {} });
  const trip = await client.callTool({ name: 'plan_trip', arguments: {} });
  process.stdout.write(`${JSON.stringify({ deleted, listed, trip, asked })}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ failed: String(error?.stack ?? error) })}\n`);
  process.exitCode = 1;
} finally {
  await client.close().catch(() => {});
}
