import 'reflect-metadata';
import { IsIn, IsInt, IsString, Max, Min } from 'class-validator';
import { Type } from 'typebox';
import { McpServer, Prompt, Resource, Tool, type ToolContext, type PromptContext, type ResourceContext } from '@decorum/core';

/** A DTO used as an elicitation form. */
export class Survey {
  @IsString() name!: string;
  @IsInt() @Min(1) @Max(5) stars!: number;
  @IsIn(['red', 'green']) color!: string;
}

const Confirm = { type: 'object', properties: { ok: { type: 'boolean', title: 'Really?' } }, required: ['ok'] } as const;
const TypeBoxForm = Type.Object({ city: Type.String({ minLength: 2 }), nights: Type.Integer({ minimum: 1 }) });

/** Counters the tests read. */
export const runs = { once: 0, sideEffect: 0, wizard: 0, deleted: [] as string[] };

export class Files {
  @IsString() path!: string;
}

@McpServer({ name: 'mrtr', version: '1.0.0' })
export class MrtrServer {
  @Tool({ description: 'deletes after confirming' })
  async delete_file(args: Files, ctx: ToolContext) {
    const answer = await ctx.elicit({ message: `Delete ${args.path}?`, requestedSchema: Confirm }, { key: 'confirm' });
    if (answer.action !== 'accept' || answer.content?.ok !== true) return `kept ${args.path}`;
    runs.deleted.push(args.path);
    return `deleted ${args.path}`;
  }

  @Tool({ input: null, description: 'three rounds' })
  async wizard(_args: unknown, ctx: ToolContext) {
    runs.wizard += 1;
    const id = await ctx.once('reserve', () => {
      runs.once += 1;
      return { reservation: `r-${runs.once}` };
    });
    const who = await ctx.elicit<{ name: string; stars: number; color: string }>({ message: 'Who are you?', requestedSchema: Survey });
    const trip = await ctx.elicit<{ city: string; nights: number }>({ message: 'Where to?', requestedSchema: TypeBoxForm });
    const sure = await ctx.elicit({ message: 'Book it?', requestedSchema: Confirm });
    return `${id.reservation}: ${who.content?.name} (${who.content?.stars}★, ${who.content?.color}) → ${trip.content?.city} × ${trip.content?.nights}, ${sure.content?.ok ? 'booked' : 'not booked'}`;
  }

  @Tool({ input: null })
  async login(_args: unknown, ctx: ToolContext) {
    const answer = await ctx.elicit({ mode: 'url', message: 'Sign in to the provider', url: 'https://auth.example.test/start?session=x' }, { key: 'oauth' });
    return `url ${answer.action}`;
  }

  @Tool({ input: null })
  async maybe_confirm(_args: unknown, ctx: ToolContext) {
    const answer = await ctx.elicit({ message: 'Sure?', requestedSchema: Confirm }, { optional: true });
    return answer === undefined ? 'no elicitation: went ahead' : `answered ${answer.action}`;
  }

  @Tool({ input: null })
  async summarize(_args: unknown, ctx: ToolContext) {
    const sampled = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarize: hello' } }], maxTokens: 50 });
    const content = sampled.content as { text?: string };
    return `${sampled.model}: ${content.text}`;
  }

  @Tool({ input: null })
  async list_roots(_args: unknown, ctx: ToolContext) {
    const roots = await ctx.roots();
    return roots.map((r) => r.uri).join(',');
  }

  @Tool({ input: null })
  async swallow(_args: unknown, ctx: ToolContext) {
    try {
      await ctx.elicit({ message: 'Sure?', requestedSchema: Confirm });
    } catch {
      // a handler bug: the framework still answers input_required
    }
    runs.sideEffect += 1;
    return 'should not be complete';
  }

  @Tool({ input: null })
  async bad_schema(_args: unknown, ctx: ToolContext) {
    await ctx.elicit({
      message: 'nested',
      requestedSchema: { type: 'object', properties: { address: { type: 'object', properties: { street: { type: 'string' } } } } },
    });
    return 'unreachable';
  }

  @Tool({ input: null })
  async big_journal(_args: unknown, ctx: ToolContext) {
    await ctx.once('blob', () => 'x'.repeat(100_000));
    return 'unreachable';
  }

  @Prompt({ description: 'asks for a tone', input: null })
  async tone(_args: unknown, ctx: PromptContext) {
    const answer = await ctx.elicit({
      message: 'Which tone?',
      requestedSchema: { type: 'object', properties: { tone: { type: 'string', enum: ['formal', 'casual'] } }, required: ['tone'] },
    });
    return `Write ${answer.content?.tone}ly`;
  }

  @Resource({ uri: 'mem://secret', mimeType: 'text/plain' })
  async secret(_vars: unknown, ctx: ResourceContext) {
    const answer = await ctx.elicit({ message: 'Show the secret?', requestedSchema: Confirm });
    return answer.content?.ok ? 'the secret' : 'hidden';
  }
}
