import 'reflect-metadata';
import { IsOptional, IsString } from 'class-validator';
import { Type } from 'typebox';
import { Field, McpServer, Prompt, text } from '@decorum/core';
import { harness } from './support/engine-harness.js';
import { request } from '@decorum-internal/test-support';

class ReviewArgs {
  @Field({ description: 'The code to review' }) @IsString() code!: string;
  @IsOptional() @IsString() language?: string;
}

@McpServer({ name: 'prompts', version: '1.0.0' })
class Prompts {
  @Prompt({ description: 'Review a piece of code', title: 'Code review' })
  code_review(args: ReviewArgs) {
    return `Please review this ${args.language ?? 'code'}:\n${args.code}`;
  }
  @Prompt({ input: Type.Object({ topic: Type.String({ description: 'What to discuss' }) }) })
  dialogue(args: { topic: string }) {
    return [
      { role: 'user', content: text(`Let's talk about ${args.topic}`) },
      { role: 'assistant', content: text('Sure.') },
    ];
  }
  @Prompt({ input: null })
  described() {
    return { description: 'A described prompt', messages: [{ role: 'user', content: text('hi') }] };
  }
}

const { call } = harness([Prompts]);

describe('prompts', () => {
  test('prompts/list derives arguments from the DTO or TypeBox schema', async () => {
    const { result } = (await call(request(1, 'prompts/list')))!;
    expect(result.prompts).toEqual([
      {
        name: 'code_review',
        title: 'Code review',
        description: 'Review a piece of code',
        arguments: [
          { name: 'code', description: 'The code to review', required: true },
          { name: 'language', required: false },
        ],
      },
      { name: 'dialogue', arguments: [{ name: 'topic', description: 'What to discuss', required: true }] },
      { name: 'described' },
    ]);
    expect(result).toMatchObject({ ttlMs: 300_000, cacheScope: 'public' });
  });

  test('a prompt can shorten its list page ttl and make the list private', async () => {
    class Cached {
      @Prompt({ input: null, ttlMs: 1234, cacheScope: 'private' }) fresh() {
        return 'x';
      }
    }
    const { call: callCached } = harness([Prompts, Cached]);
    expect((await callCached(request(1, 'prompts/list')))!.result).toMatchObject({ ttlMs: 1234, cacheScope: 'private' });
  });

  test('a string is one user text message', async () => {
    const { result } = (await call(request(1, 'prompts/get', { name: 'code_review', arguments: { code: 'x = 1' } })))!;
    expect(result).toMatchObject({ resultType: 'complete', messages: [{ role: 'user', content: { type: 'text', text: 'Please review this code:\nx = 1' } }] });
    expect(result).not.toHaveProperty('ttlMs');
  });

  test('messages and full results pass through', async () => {
    expect((await call(request(1, 'prompts/get', { name: 'dialogue', arguments: { topic: 'MCP' } })))!.result.messages).toHaveLength(2);
    expect((await call(request(1, 'prompts/get', { name: 'described' })))!.result.description).toBe('A described prompt');
  });

  test('a missing required argument is -32602 naming it', async () => {
    const { error } = (await call(request(1, 'prompts/get', { name: 'code_review', arguments: {} })))!;
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('/code');
    expect(error.data.issues[0]).toMatchObject({ pointer: '/code', keyword: 'required' });
  });

  test('an unknown prompt is -32602', async () => {
    expect((await call(request(1, 'prompts/get', { name: 'nope' })))!.error).toEqual({ code: -32602, message: 'Unknown prompt: nope' });
  });

  test('non-string argument values are -32602', async () => {
    expect((await call(request(1, 'prompts/get', { name: 'code_review', arguments: { code: 5 } })))!.error.code).toBe(-32602);
  });
});
