// The official MCP TypeScript client (@modelcontextprotocol/client, pinned), pinned to protocol
// 2026-07-28, through a load balancer in front of several Decorum instances (the cluster fixture):
// list → call → elicit → listen. Prints one JSON line.
//   node sdk-cluster-client.mjs <url>
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url] = process.argv.slice(2);
const client = new Client(
  { name: 'decorum-cluster-interop', version: '0.0.0' },
  { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
);
const asked = [];
client.setRequestHandler('elicitation/create', async (request) => {
  asked.push(request.params.message);
  return { action: 'accept', content: { ok: true } };
});
const changes = [];
let changed;
client.setNotificationHandler('notifications/tools/list_changed', (notification) => {
  changes.push(notification.params?._meta ?? {});
  changed?.();
});
const text = (result) => result.content[0].text;
async function within(promise, ms, what) {
  let timer;
  try {
    return await Promise.race([promise, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

try {
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const listed = (await client.listTools()).tools.map((t) => t.name);
  // Round-robin: successive calls land on different processes.
  const pids = [];
  for (let i = 0; i < 4; i++) pids.push(text(await client.callTool({ name: 'whoami', arguments: {} })));
  // An MRTR round trip: each round may land on another instance.
  const greeted = text(await client.callTool({ name: 'welcome', arguments: { name: 'Ada' } }));
  // A listen held by one instance hears a change made on whichever instance the call reaches.
  const subscription = await client.listen({ toolsListChanged: true });
  const heard = new Promise((resolve) => (changed = resolve));
  await client.callTool({ name: 'set_deploy', arguments: { enabled: false } });
  await within(heard, 10_000, 'tools/list_changed');
  const relisted = [];
  for (let i = 0; i < 2; i++) relisted.push((await client.listTools()).tools.map((t) => t.name));
  await client.callTool({ name: 'set_deploy', arguments: { enabled: true } });
  await subscription.close();
  process.stdout.write(
    `${JSON.stringify({ protocolVersion: client.getNegotiatedProtocolVersion(), honoured: subscription.honoredFilter, listed, pids, greeted, asked, changes, relisted })}\n`,
  );
} catch (error) {
  process.stdout.write(`${JSON.stringify({ failed: String(error?.stack ?? error) })}\n`);
  process.exitCode = 1;
} finally {
  await client.close().catch(() => {});
}
