import 'reflect-metadata';
import { Type } from 'typebox';
import { McpServer, Tool, type ToolContext } from '@decorum/core';
import { request } from '../../../test/support/mcp-requests.js';
import { RecordingOutput, serveInProcess } from './support/in-process-stdio.js';

@McpServer({ name: 'stdio-unit', version: '1.0.0' })
class Tools {
  @Tool({ input: Type.Object({ a: Type.Integer(), b: Type.Integer() }) })
  add({ a, b }: { a: number; b: number }) {
    return String(a + b);
  }

  @Tool({ input: Type.Object({ steps: Type.Integer() }) })
  async count({ steps }: { steps: number }, ctx: ToolContext) {
    for (let i = 1; i <= steps; i++) {
      ctx.progress(i, steps);
      if (i % 2 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    return `counted ${steps}`;
  }

  @Tool({ input: null, description: 'A result JSON cannot carry' })
  bigint() {
    return { content: [{ type: 'text', text: 'big' }], _meta: { big: 10n } };
  }
}

const add = (id: string | number, a = 20, b = 22) => JSON.stringify(request(id, 'tools/call', { name: 'add', arguments: { a, b } }));

describe('serveStdio', () => {
  test('a result JSON cannot carry is answered with -32603, and the server keeps serving', async () => {
    const { input, until, served } = serveInProcess([Tools]);
    input.write(`${JSON.stringify(request('big', 'tools/call', { name: 'bigint' }))}\n${add('after')}\n`);
    const messages = await until((m) => m.some((x) => x.id === 'after'));
    expect(messages.find((m) => m.id === 'big')).toEqual({ jsonrpc: '2.0', id: 'big', error: { code: -32603, message: 'Internal error' } });
    expect(messages.find((m) => m.id === 'after')?.result.content[0].text).toBe('42');
    input.end();
    await served.closed;
  });
});
