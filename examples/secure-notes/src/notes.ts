/**
 * The secure-notes example: a notes server whose every tool and resource needs an OAuth scope.
 * Each caller (the token's `sub`, `ctx.auth.principal`) has a notebook of their own.
 * Run it locally with `node examples/secure-notes/scripts/dev-token.mjs` — see the README.
 */
import 'reflect-metadata';
import { McpServer, Prompt, Resource, Tool, ToolError, type RequestContext, type ToolContext } from '@decorum/core';
import { Type, type Static } from 'typebox';

const AddNote = Type.Object({ text: Type.String({ minLength: 1, maxLength: 2000, description: 'The note' }) });
const NoteId = Type.Object({ id: Type.Integer({ minimum: 1, description: 'Which note' }) });

interface Note {
  readonly id: number;
  readonly text: string;
  readonly createdAt: string;
}

@McpServer({ name: 'secure-notes', version: '1.0.0', instructions: 'Personal notes. Reading needs notes:read, writing needs notes:write.' })
export class SecureNotesServer {
  /** Notebooks by principal; in memory, for the example. */
  private readonly notebooks = new Map<string, Note[]>();

  private notebook(ctx: RequestContext): Note[] {
    // On a protected endpoint ctx.auth is always set; without auth (stdio) everyone shares one notebook.
    const owner = ctx.auth?.principal ?? 'local';
    let notes = this.notebooks.get(owner);
    if (!notes) this.notebooks.set(owner, (notes = []));
    return notes;
  }

  @Tool({ description: 'Who the server thinks you are: the token\'s subject and scopes', input: null, annotations: { readOnlyHint: true } })
  whoami(_args: unknown, ctx: ToolContext): string {
    if (!ctx.auth) return 'not authenticated (stdio or an unprotected endpoint)';
    return `principal: ${ctx.auth.principal ?? '(no sub)'}; scopes: ${ctx.auth.scopes.join(' ') || '(none)'}`;
  }

  @Tool({ description: 'Add a note to your notebook', input: AddNote, scopes: ['notes:write'] })
  notes_add(args: Static<typeof AddNote>, ctx: ToolContext): string {
    const notes = this.notebook(ctx);
    const note = { id: notes.length + 1, text: args.text, createdAt: new Date().toISOString() };
    notes.push(note);
    return `Added note ${note.id}.`;
  }

  @Tool({ description: 'List your notes', input: null, scopes: ['notes:read'], annotations: { readOnlyHint: true } })
  notes_list(_args: unknown, ctx: ToolContext): string {
    const notes = this.notebook(ctx);
    return notes.length === 0 ? 'No notes yet.' : notes.map((note) => `${note.id}. ${note.text}`).join('\n');
  }

  @Tool({ description: 'Delete one of your notes', input: NoteId, scopes: ['notes:write'], annotations: { destructiveHint: true } })
  notes_delete(args: Static<typeof NoteId>, ctx: ToolContext): string {
    const notes = this.notebook(ctx);
    const index = notes.findIndex((note) => note.id === args.id);
    if (index < 0) throw new ToolError(`You have no note ${args.id}.`);
    notes.splice(index, 1);
    return `Deleted note ${args.id}.`;
  }

  @Resource({ uri: 'notes://mine', name: 'my-notes', description: 'Your notes as JSON', mimeType: 'application/json', scopes: ['notes:read'], cacheScope: 'private' })
  mine(_variables: unknown, ctx: RequestContext): string {
    return JSON.stringify(this.notebook(ctx));
  }

  @Prompt({ description: 'Summarise your notes', input: null, scopes: ['notes:read'] })
  summarise(): string {
    return 'Call notes_list, then summarise my notes in three bullet points.';
  }
}
