// src/notes.ts
import 'reflect-metadata';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { Field, McpServer, Prompt, Resource, Tool, UserError, type ToolContext } from '@decorum/core';

class AddNote {
  @Field({ description: 'The note text' }) @IsString() @MaxLength(500) text!: string;
  @IsOptional() @IsIn(['low', 'high']) priority: 'low' | 'high' = 'low';
}

@McpServer({ name: 'notes', version: '1.0.0', instructions: 'A tiny note store.' })
export class NotesServer {
  private notes: string[] = [];

  @Tool({ description: 'Store a note' })
  add_note(args: AddNote, ctx: ToolContext) {          // the input schema comes from AddNote
    ctx.log.info({ priority: args.priority }, 'note added');
    this.notes.push(args.text);
    return `Stored note #${this.notes.length}`;         // a string becomes one text block
  }

  @Resource({ uriTemplate: 'notes://{index}', mimeType: 'text/plain' })
  note({ index }: { index: string }) {
    return this.notes[Number(index) - 1];               // undefined → "Resource not found" (-32602)
  }

  @Prompt({ description: 'Summarize every note' })
  summarize() {
    if (this.notes.length === 0) throw new UserError('No notes yet'); // -32602 "No notes yet"
    return `Summarize these notes:\n${this.notes.join('\n')}`;
  }
}
