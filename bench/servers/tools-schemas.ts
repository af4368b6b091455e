/** Schemas and names shared by the Decorum and SDK bench servers (plain TypeBox, no framework). */
import { Type } from 'typebox';

/** `add_typebox`'s arguments: the same shape as TypeBox. */
export const AddSchema = Type.Object({
  a: Type.Integer({ minimum: -1_000_000, maximum: 1_000_000, description: 'First addend' }),
  b: Type.Integer({ minimum: -1_000_000, maximum: 1_000_000, description: 'Second addend' }),
});

/** `echo`'s arguments. */
export const EchoSchema = Type.Object({ text: Type.String({ description: 'Echoed back' }) });

/** The arguments of every tool of the tools/list servers. */
export const ListToolSchema = Type.Object({
  query: Type.String({ description: 'What to look up' }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'How many results' })),
});

/** Name of the i-th tool of a tools/list server (shared with the SDK servers). */
export function listToolName(i: number): string {
  return `lookup_${String(i).padStart(4, '0')}`;
}
export function listToolDescription(i: number): string {
  return `Looks up records in collection number ${i} and returns the matching ones`;
}

export const LIST_SIZES = [1, 50, 500] as const;
