#!/usr/bin/env node
/**
 * The conformance client: the program `conformance client --command` runs, once per scenario,
 * with the scenario's server URL as its last argument, `MCP_CONFORMANCE_SCENARIO`, and
 * `MCP_CONFORMANCE_PROTOCOL_VERSION` (the era to speak) in its environment, and for some auth
 * scenarios `MCP_CONFORMANCE_CONTEXT` (JSON: pre-registered client credentials, the tool calls the
 * user asks for).
 *
 * It behaves as a plain host built on the built @decorum/client: connect (OAuth when the server
 * asks), list the tools, call each with arguments a user might give, answer elicitation with the
 * form's defaults, sampling with a fixed reply, roots with none. The only host decisions taken
 * from the scenario are the ones a user would make: which client identity to use.
 */
import { connect, OAuthClient } from '../../packages/client/dist/index.js';

const url = new URL(process.argv.at(-1));
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '2026-07-28';
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};

/** The user "approves" in the browser: follow the authorization server's redirect without a browser. */
async function authorize(authorizationUrl) {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (!location) throw new Error(`The authorization endpoint answered ${response.status} without a redirect`);
  return new URL(location, authorizationUrl);
}

const oauthClient = new OAuthClient(url, {
  redirectUri: 'http://127.0.0.1:3333/callback',
  authorize,
  clientName: 'decorum-conformance-client',
  clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
  ...(context.client_id && { client: { clientId: context.client_id, ...(context.client_secret && { clientSecret: context.client_secret }) } }),
});

/** A value a user might type for a property of a tool's input schema. */
function sample(schema = {}) {
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return argumentsFor(schema);
    default:
      return 'test';
  }
}

function argumentsFor(schema = {}) {
  const args = {};
  for (const name of schema.required ?? []) args[name] = sample(schema.properties?.[name]);
  return args;
}

/**
 * What the user asks for in scenarios that pass no `toolCalls` but describe the request in their
 * text. json-schema-2020-12-preservation: hand json_schema_2020_12_tool's input schema, exactly as
 * the client received it, to json_schema_echo (the scenario then checks which keywords survived
 * the client's handling: $schema, $defs, $anchor, additionalProperties, allOf/anyOf, if/then/else).
 */
const USER_REQUESTS = {
  'json-schema-2020-12-preservation': (tools) => [
    { name: 'json_schema_echo', arguments: { schema: tools.find((tool) => tool.name === 'json_schema_2020_12_tool')?.inputSchema } },
  ],
};

/** The form's defaults: what a user who accepts without editing sends (SEP-1034). */
function elicitation(request) {
  if (request.mode === 'url') return { action: 'decline' };
  const content = {};
  for (const [name, property] of Object.entries(request.requestedSchema?.properties ?? {}))
    if (property.default !== undefined) content[name] = property.default;
  return { action: 'accept', content };
}

const client = await connect(
  { url: url.href, fetch: oauthClient.fetch() },
  {
    era: version === '2026-07-28' ? 'modern' : 'legacy',
    // The suite runs scenarios in parallel on a loaded machine, and the first request carries the OAuth flow.
    probeTimeoutMs: 25_000,
    elicitation,
    sampling: () => ({
      role: 'assistant',
      content: { type: 'text', text: 'A reply from the conformance client.' },
      model: 'conformance-model',
      stopReason: 'endTurn',
    }),
    roots: () => [],
  },
);
try {
  const tools = [];
  for await (const tool of client.tools()) tools.push(tool);
  // Where the scenario says what the user asks for (`toolCalls`: tool and arguments, or in its
  // text), do that; otherwise call every tool with arguments from its schema.
  const calls = context.toolCalls ?? USER_REQUESTS[scenario]?.(tools) ?? tools.map((tool) => ({ name: tool.name, arguments: argumentsFor(tool.inputSchema) }));
  for (const call of calls) {
    try {
      await client.callTool(call.name, call.arguments ?? {}, { timeoutMs: 20_000 });
    } catch (error) {
      process.stderr.write(`conformance client: ${call.name}: ${error.message}\n`);
    }
  }
} finally {
  await client.close();
}
process.stderr.write(`conformance client: ${scenario} done\n`);
