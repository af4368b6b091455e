import 'reflect-metadata';
import { IsString } from 'class-validator';
import { McpServer, Prompt, Resource, Tool, ToolError, UserError } from '@decorum/core';
import { capturingLogger, harness } from './support/engine-harness.js';
import { request } from '@decorum-internal/test-support';

class Topic {
  @IsString() topic!: string;
}

/** One rule for all three kinds: a UserError (or ToolError) is shown, anything else is generic. */
@McpServer({ name: 'refusals', version: '1.0.0' })
class Refusals {
  @Tool({ input: null }) tool_user() {
    throw new UserError('Nothing to do yet');
  }
  @Tool({ input: null }) tool_bug() {
    throw new Error('database password is hunter2');
  }
  @Prompt() prompt_user(args: Topic) {
    throw new UserError(`No notes about ${args.topic}`);
  }
  @Prompt({ input: null }) prompt_tool_error() {
    throw new ToolError('No notes yet', { count: 0 });
  }
  @Prompt({ input: null }) async prompt_bug() {
    throw new TypeError('cannot read /srv/secret');
  }
  @Resource({ uri: 'refuse://fixed' }) fixed() {
    throw new UserError('The archive is offline until Monday');
  }
  @Resource({ uriTemplate: 'refuse://user/{id}' }) template({ id }: { id: string }) {
    if (id === 'bug') throw new RangeError('index 7 out of range in /srv/store');
    throw new ToolError(`User ${id} has hidden their profile`);
  }
}

const { logger, lines } = capturingLogger('debug');
const { call } = harness([Refusals], { logger });
const flushed = () => new Promise((resolve) => setImmediate(resolve));

describe('user errors in tools, prompts and resources', () => {
  beforeEach(() => lines.splice(0));

  test('UserError and ToolError are the same idea', () => {
    expect(new ToolError('x')).toBeInstanceOf(UserError);
    expect(new ToolError('x').name).toBe('ToolError');
    expect(new UserError('x').name).toBe('UserError');
  });

  test('tools/call: a UserError is an isError result with its message', async () => {
    const { result } = (await call(request(1, 'tools/call', { name: 'tool_user' })))!;
    expect(result).toMatchObject({ resultType: 'complete', isError: true, content: [{ type: 'text', text: 'Nothing to do yet' }] });
  });

  test.each([
    ['prompts/get', { name: 'prompt_user', arguments: { topic: 'cats' } }, 'No notes about cats'],
    ['prompts/get', { name: 'prompt_tool_error' }, 'No notes yet'],
    ['resources/read', { uri: 'refuse://fixed' }, 'The archive is offline until Monday'],
    ['resources/read', { uri: 'refuse://user/ada' }, 'User ada has hidden their profile'],
  ])('%s %j: a UserError is a -32602 carrying its message, nothing logged as a failure', async (method, params, message) => {
    const response = (await call(request(1, method, params)))!;
    expect(response.error).toEqual({ code: -32602, message });
    await flushed();
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });

  test.each([
    ['tools/call', { name: 'tool_bug' }, 'hunter2'],
    ['prompts/get', { name: 'prompt_bug' }, '/srv/secret'],
    ['resources/read', { uri: 'refuse://user/bug' }, '/srv/store'],
  ])('%s %j: any other error stays generic, its details only in the log', async (method, params, secret) => {
    const response = (await call(request(1, method, params)))!;
    const wire = JSON.stringify(response);
    expect(wire).not.toContain(secret);
    expect(wire).not.toMatch(/Error:|at .*\(/);
    if (method === 'tools/call')
      expect(response.result).toMatchObject({ isError: true, content: [{ text: 'Tool "tool_bug" failed with an internal error.' }] });
    else expect(response.error).toEqual({ code: -32603, message: expect.stringMatching(/^Internal error in (prompt_bug|template)$/) });
    await flushed();
    const logged = lines.filter((line) => line.level === 50);
    expect(logged).toHaveLength(1);
    expect(logged[0].err.message).toContain(secret);
    expect(logged[0].err.stack).toBeDefined();
  });
});
