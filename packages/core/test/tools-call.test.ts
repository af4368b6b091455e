import 'reflect-metadata';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { Type } from 'typebox';
import { image, InvalidParamsError, McpServer, resourceLink, text, Tool, ToolError, type ToolContext } from '@decorum/core';
import { harness } from './support/engine-harness.js';
import { request } from '@decorum-internal/test-support';

class Order {
  @IsString() item!: string;
  @IsInt() @Min(1) @Max(10) qty!: number;
  @IsOptional() @IsIn(['fast', 'slow']) shipping: 'fast' | 'slow' = 'slow';
}

class Receipt {
  @IsString() item!: string;
  @IsInt() total!: number;
}

const Sum = Type.Object({ a: Type.Integer(), b: Type.Integer() });
const SumOut = Type.Object({ sum: Type.Integer() });

let seen: unknown;

@McpServer({ name: 'caller', version: '1.0.0' })
class Caller {
  @Tool() order(args: Order) {
    seen = args;
    return `ordered ${args.qty} ${args.item} (${args.shipping})`;
  }
  @Tool({ output: Receipt }) receipt(args: Order) {
    return { item: args.item, total: args.qty * 3 };
  }
  @Tool({ input: Sum, output: SumOut }) sum(args: { a: number; b: number }) {
    return { sum: args.a + args.b };
  }
  // @ts-expect-error -- a wrong result on purpose: it tests the run-time outputSchema check, which tsc would otherwise pre-empt
  @Tool({ input: null, output: SumOut }) wrong_output() {
    return { sum: 'not a number' };
  }
  @Tool({ input: null, output: SumOut }) refused_output() {
    return { content: [text('refused')], isError: true };
  }
  @Tool({ input: null }) blocks() {
    return [text('one'), image(Buffer.from([1, 2, 3]), 'image/png'), resourceLink({ uri: 'mem://x', name: 'x' })];
  }
  @Tool({ input: null }) full_result() {
    return { content: [text('custom')], isError: true };
  }
  @Tool({ input: null }) nothing() {
    return undefined;
  }
  @Tool({ input: null }) object_value() {
    return { a: 1 };
  }
  @Tool({ input: null }) tool_error() {
    throw new ToolError('Departure date must be in the future');
  }
  @Tool({ input: null }) crash() {
    throw new Error('database password is hunter2');
  }
  @Tool({ input: null }) protocol_error() {
    throw new InvalidParamsError('Unknown account: 42');
  }
  @Tool({ input: null }) thenable() {
    // Not a native Promise: a handler may return any thenable, and it is awaited.
    return { then: (resolve: (value: string) => void) => resolve('from a thenable') };
  }
  @Tool({ input: null }) async context(_args: object, ctx: ToolContext) {
    return JSON.stringify({ id: ctx.requestId, method: ctx.method, client: ctx.client.info?.name, caps: ctx.client.capabilities, aborted: ctx.signal.aborted });
  }
}

const { call } = harness([Caller]);
const callTool = async (name: string, args?: unknown) => (await call(request(1, 'tools/call', args === undefined ? { name } : { name, arguments: args })))!;

describe('tools/call', () => {
  test('a handler returning a thenable that is not a native Promise is awaited', async () => {
    const { result } = await callTool('thenable');
    expect(result.content).toEqual([{ type: 'text', text: 'from a thenable' }]);
  });

  test('a string result is one text block; the handler gets a DTO instance with defaults', async () => {
    const { result } = await callTool('order', { item: 'pen', qty: 2 });
    expect(result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'ordered 2 pen (slow)' }], isError: false });
    expect(seen).toBeInstanceOf(Order);
  });

  test('invalid arguments are an isError result naming every failing field, with the issues as data', async () => {
    const { result } = await callTool('order', { qty: 20, shipping: 'teleport' });
    expect(result.isError).toBe(true);
    const message: string = result.content[0].text;
    expect(message).toContain('/item');
    expect(message).toContain('/qty');
    expect(message).toContain('/shipping');
    expect(message.match(/Invalid arguments/g)).toHaveLength(1);
    const issues = result._meta['dev.decorum/validation'].issues;
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pointer: '/item', keyword: 'required' }),
        expect.objectContaining({ pointer: '/qty', keyword: 'maximum' }),
        expect.objectContaining({ pointer: '/shipping', keyword: 'enum' }),
      ]),
    );
    expect(result.structuredContent).toEqual({ issues });
  });

  test('with an outputSchema, issues stay out of structuredContent', async () => {
    const { result } = await callTool('receipt', {});
    expect(result.isError).toBe(true);
    expect(result).not.toHaveProperty('structuredContent');
    expect(result._meta['dev.decorum/validation'].issues[0]).toMatchObject({ keyword: 'required' });
  });

  test('TypeBox input and output: structuredContent plus its JSON text', async () => {
    const { result } = await callTool('sum', { a: 2, b: 3 });
    expect(result).toMatchObject({ structuredContent: { sum: 5 }, content: [{ type: 'text', text: '{"sum":5}' }], isError: false });
    const bad = (await callTool('sum', { a: 'x' })).result;
    expect(bad.isError).toBe(true);
    expect(bad._meta['dev.decorum/validation'].issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ pointer: '/a', keyword: 'type' }), expect.objectContaining({ pointer: '/b', keyword: 'required' })]),
    );
  });

  test('DTO output becomes structuredContent', async () => {
    const { result } = await callTool('receipt', { item: 'pen', qty: 2 });
    expect(result.structuredContent).toEqual({ item: 'pen', total: 6 });
  });

  test('with an outputSchema, a full isError result passes through unchecked, complete, resultType first', async () => {
    const { result } = await callTool('refused_output', {});
    expect(result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'refused' }], isError: true });
    expect(result.structuredContent).toBeUndefined();
    expect(Object.keys(result)[0]).toBe('resultType');
  });

  test('output that breaks the outputSchema is -32603, not a silent bad result', async () => {
    const response = await callTool('wrong_output', {});
    expect(response.error).toEqual({ code: -32603, message: expect.stringContaining('outputSchema') });
  });

  test('content blocks and full results pass through', async () => {
    const blocks = (await callTool('blocks', {})).result.content;
    expect(blocks).toEqual([
      { type: 'text', text: 'one' },
      { type: 'image', data: 'AQID', mimeType: 'image/png' },
      { type: 'resource_link', uri: 'mem://x', name: 'x' },
    ]);
    expect((await callTool('full_result', {})).result).toMatchObject({ content: [{ type: 'text', text: 'custom' }], isError: true });
    expect((await callTool('nothing', {})).result.content).toEqual([{ type: 'text', text: 'OK' }]); // docs/results.md
    expect((await callTool('object_value', {})).result.content).toEqual([{ type: 'text', text: '{"a":1}' }]);
  });

  test('a ToolError is an isError result with its message', async () => {
    const { result } = await callTool('tool_error', {});
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Departure date must be in the future' }] });
  });

  test('any other error is a generic isError result; nothing of it leaks', async () => {
    const response = await callTool('crash', {});
    expect(response.result.isError).toBe(true);
    expect(JSON.stringify(response)).not.toContain('hunter2');
    expect(JSON.stringify(response)).not.toContain('at ');
  });

  test('a protocol error thrown on purpose keeps its code', async () => {
    expect((await callTool('protocol_error', {})).error).toEqual({ code: -32602, message: 'Unknown account: 42' });
  });

  test('a tool without arguments accepts only {}', async () => {
    expect((await callTool('nothing')).result.isError).toBe(false);
    expect((await callTool('nothing', { extra: 1 })).result.isError).toBe(true);
  });

  test('ctx carries the request', async () => {
    const { result } = await callTool('context', {});
    expect(JSON.parse(result.content[0].text)).toEqual({ id: 1, method: 'tools/call', client: 'decorum-tests', caps: {}, aborted: false });
  });

  test('unknown tool is -32602', async () => {
    expect((await callTool('does_not_exist', {})).error).toEqual({ code: -32602, message: 'Unknown tool: does_not_exist' });
  });

  test.each([
    [{ arguments: {} }, 'params.name'],
    [{ name: 5 }, 'params.name'],
    [{ name: 'order', arguments: [1] }, 'params.arguments'],
    [{ name: 'order', arguments: 'x' }, 'params.arguments'],
  ])('malformed params %p are -32602', async (params, mentions) => {
    const response = await call(request(1, 'tools/call', params));
    expect(response?.error.code).toBe(-32602);
    expect(response?.error.message).toContain(mentions);
  });
});
