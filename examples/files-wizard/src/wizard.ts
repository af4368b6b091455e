/**
 * The MRTR example: a `delete_file` tool that asks before acting, and a three-question
 * `plan_trip` wizard. Each question is an `input_required` round; the handler runs again from
 * the top on every retry, and answers of earlier rounds come back sealed in `requestState`.
 * Serve it with `mcp-serve examples/files-wizard/dist/wizard.js` (stdio).
 */
import 'reflect-metadata';
import { IsInt, IsString, Max, Min, MinLength } from 'class-validator';
import { Type } from 'typebox';
import { Field, McpServer, Tool, ToolError, type ToolContext } from '@decorum/core';

/** The in-memory "disk" the tools work on. */
const files = new Map<string, string>([
  ['/notes/todo.txt', 'buy milk'],
  ['/notes/ideas.md', '# ideas'],
  ['/tmp/scratch', ''],
]);

/** Arguments of `delete_file`. */
export class DeleteArgs {
  @Field({ description: 'Absolute path of the file to delete' })
  @IsString()
  @MinLength(1)
  path!: string;
}

/** The confirmation form (a plain restricted schema). */
const CONFIRM = {
  type: 'object',
  properties: { confirm: { type: 'boolean', title: 'Delete it?', description: 'This cannot be undone' } },
  required: ['confirm'],
} as const;

/** The wizard's first form, as a DTO class (turned into the flat elicitation schema). */
export class Traveller {
  @Field({ description: 'Your name' })
  @IsString()
  @MinLength(1)
  name!: string;

  @Field({ description: 'How many people travel' })
  @IsInt()
  @Min(1)
  @Max(9)
  people!: number;
}

/** The wizard's second form, as a TypeBox object. */
const Destination = Type.Object({
  city: Type.String({ minLength: 2, description: 'Where to' }),
  season: Type.Union([Type.Literal('spring'), Type.Literal('summer'), Type.Literal('autumn'), Type.Literal('winter')]),
});

@McpServer({ name: 'files-wizard', version: '1.0.0', instructions: 'Deletes files after confirmation; plans trips in three questions.' })
export class FilesWizard {
  @Tool({ description: 'List the files', input: null, annotations: { readOnlyHint: true } })
  list_files() {
    return [...files.keys()].join('\n') || '(no files)';
  }

  @Tool({ description: 'Delete a file after the user confirms', annotations: { destructiveHint: true } })
  async delete_file(args: DeleteArgs, ctx: ToolContext) {
    // Before the first ask: runs on every round, so it only reads.
    if (!files.has(args.path)) throw new ToolError(`No such file: ${args.path}`);
    const answer = await ctx.elicit({ message: `Delete ${args.path}? This cannot be undone.`, requestedSchema: CONFIRM }, { key: 'confirm' });
    if (answer.action !== 'accept' || answer.content?.confirm !== true) return `Kept ${args.path}.`;
    files.delete(args.path);
    return `Deleted ${args.path}.`;
  }

  @Tool({ description: 'Plan a trip: asks three questions, one round each', input: null })
  async plan_trip(_args: unknown, ctx: ToolContext) {
    // Journaled: the quote number is drawn once, not once per round.
    const quote = await ctx.once('quote', () => `Q-${Math.floor(Math.random() * 1e6)}`);
    const who = await ctx.elicit<{ name: string; people: number }>({ message: 'Who is travelling?', requestedSchema: Traveller });
    if (who.action !== 'accept') return 'Trip planning cancelled.';
    const where = await ctx.elicit<{ city: string; season: string }>({ message: 'Where and when?', requestedSchema: Destination });
    if (where.action !== 'accept') return 'Trip planning cancelled.';
    const { name, people } = who.content!;
    const { city, season } = where.content!;
    const book = await ctx.elicit({
      message: `Book ${city} in ${season} for ${people} (${name})?`,
      requestedSchema: { type: 'object', properties: { book: { type: 'boolean' }, extras: { type: 'array', items: { type: 'string', enum: ['insurance', 'car', 'breakfast'] } } }, required: ['book'] },
    });
    if (book.action !== 'accept' || book.content?.book !== true) return `Quote ${quote} kept for later.`;
    const extras = (book.content.extras as string[] | undefined) ?? [];
    return `Booked ${city} in ${season} for ${people} (${name}), quote ${quote}${extras.length ? `, with ${extras.join(', ')}` : ''}.`;
  }
}
