/**
 * The same tools for the official SDK v2 (`@modelcontextprotocol/server`): zod for the DTO-shaped
 * tool (the SDK's own schema library), the TypeBox JSON Schemas through `fromJsonSchema`.
 */
import { McpServer, fromJsonSchema } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { AddSchema, EchoSchema, ListToolSchema, listToolDescription, listToolName } from './tools-schemas.js';

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

const AddZod = z.object({
  a: z.number().int().min(-1_000_000).max(1_000_000).describe('First addend'),
  b: z.number().int().min(-1_000_000).max(1_000_000).describe('Second addend'),
});

/** A fresh server with the bench tools (the SDK builds one per request or connection). */
export function benchServer(): McpServer {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  server.registerTool('add_dto', { description: 'Adds two integers (DTO-validated)', inputSchema: AddZod }, async ({ a, b }) => text(String(a + b)));
  server.registerTool(
    'add_typebox',
    { description: 'Adds two integers (TypeBox-validated)', inputSchema: fromJsonSchema<{ a: number; b: number }>(AddSchema as never) },
    async ({ a, b }) => text(String(a + b)),
  );
  server.registerTool('echo', { description: 'Echoes its text', inputSchema: fromJsonSchema<{ text: string }>(EchoSchema as never) }, async (args) =>
    text(args.text),
  );
  return server;
}

/** A fresh server with `n` tools. */
export function listServer(n: number): McpServer {
  const server = new McpServer({ name: `bench-list-${n}`, version: '1.0.0' });
  const schema = fromJsonSchema<{ query: string; limit?: number }>(ListToolSchema as never);
  for (let i = 0; i < n; i++) {
    server.registerTool(listToolName(i), { description: listToolDescription(i), inputSchema: schema }, async (args) => text(`no records for ${args.query}`));
  }
  return server;
}
