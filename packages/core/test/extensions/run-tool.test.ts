// ExtensionRequest.runTool: an extension's method runs a stored tool call through the tool's class and
// member @Use and its method (not the server's middleware again), with the stored arguments, client
// capabilities and revision; an unknown tool is -32602 and invalid arguments the usual isError result.
import 'reflect-metadata';
import { Type } from 'typebox';
import { defineExtension, McpServer, Tool, Use, type JsonObject, type Middleware, type StoredToolCall, type ToolContext } from '@decorum/core';
import { request } from '@decorum-internal/test-support';
import { harness } from '../support/engine-harness.js';

const order: string[] = [];
const step =
  (name: string): Middleware =>
  async (_call, next) => {
    order.push(`${name}>`);
    try {
      return await next();
    } finally {
      order.push(`<${name}`);
    }
  };

@McpServer({ name: 'run-tool', version: '1.0.0' })
@Use(step('class'))
class Stored {
  @Use(step('member'))
  @Tool({ input: Type.Object({ n: Type.Number() }) })
  double(args: { n: number }, ctx: ToolContext) {
    order.push('handler');
    return JSON.stringify({ doubled: args.n * 2, capabilities: ctx.client.capabilities, version: ctx.client.protocolVersion });
  }
}

const rerun = defineExtension({
  id: 'com.example/rerun',
  methods: {
    'com.example/rerun': {
      run: async (req) => ({ ran: (await req.runTool(req.params.stored as unknown as StoredToolCall, {})) as unknown as JsonObject }),
    },
  },
});

const stored = (name: string, args: JsonObject): StoredToolCall => ({
  name,
  arguments: args,
  clientCapabilities: { elicitation: { form: {} } },
  protocolVersion: '2026-07-28',
});

describe('ExtensionRequest.runTool', () => {
  const { call } = harness([Stored], { extensions: [rerun], middleware: [step('server')] });

  test("runs the tool's @Use chain and method with the stored call; the server's middleware runs once, on the request", async () => {
    order.length = 0;
    const response = await call(request(1, 'com.example/rerun', { stored: stored('double', { n: 21 }) }));
    expect(JSON.parse(response?.result.ran.content[0].text)).toEqual({ doubled: 42, capabilities: { elicitation: { form: {} } }, version: '2026-07-28' });
    expect(order).toEqual(['server>', 'class>', 'member>', 'handler', '<member', '<class', '<server']);
  });

  test('an unknown tool is -32602 naming it, and invalid stored arguments are the isError result tools/call gives', async () => {
    const unknown = await call(request(2, 'com.example/rerun', { stored: stored('triple', {}) }));
    expect(unknown?.error).toMatchObject({ code: -32602, message: expect.stringContaining('triple') });
    const invalid = await call(request(3, 'com.example/rerun', { stored: stored('double', { n: 'x' }) }));
    expect(invalid?.result.ran).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringMatching(/^Invalid arguments for tool "double"/) }],
    });
  });
});
