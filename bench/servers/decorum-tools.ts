/**
 * The tools every Decorum bench target serves, written with Decorum's decorators.
 * The SDK targets (sdk-tools.ts) serve the same names, schemas and answers.
 */
import 'reflect-metadata';
import { IsInt, Max, Min } from 'class-validator';
import { Field, McpServer, Tool } from '@decorum/core';
import type { Static } from 'typebox';
import { AddSchema, EchoSchema, ListToolSchema, listToolDescription, listToolName } from './tools-schemas.js';

export { LIST_SIZES } from './tools-schemas.js';

/** `add_dto`'s arguments: a class-validator DTO. */
export class AddArgs {
  @Field({ description: 'First addend' })
  @IsInt()
  @Min(-1_000_000)
  @Max(1_000_000)
  a!: number;

  @Field({ description: 'Second addend' })
  @IsInt()
  @Min(-1_000_000)
  @Max(1_000_000)
  b!: number;
}

@McpServer({ name: 'bench', version: '1.0.0' })
export class BenchServer {
  @Tool({ description: 'Adds two integers (DTO-validated)' })
  add_dto(args: AddArgs): string {
    return String(args.a + args.b);
  }

  @Tool({ description: 'Adds two integers (TypeBox-validated)', input: AddSchema })
  add_typebox(args: Static<typeof AddSchema>): string {
    return String(args.a + args.b);
  }

  @Tool({ description: 'Echoes its text', input: EchoSchema })
  echo(args: Static<typeof EchoSchema>): string {
    return args.text;
  }
}

/** A server with `n` tools, made by applying the decorators by hand (a class per tool count). */
export function listServer(n: number): new () => object {
  class ListServer {}
  for (let i = 0; i < n; i++) {
    const name = listToolName(i);
    const descriptor: PropertyDescriptor = {
      value(args: Static<typeof ListToolSchema>) {
        return `no records for ${args.query}`;
      },
      writable: true,
      configurable: true,
      enumerable: false,
    };
    Object.defineProperty(ListServer.prototype, name, descriptor);
    Tool({ description: listToolDescription(i), input: ListToolSchema })(ListServer.prototype, name, descriptor);
  }
  McpServer({ name: `bench-list-${n}`, version: '1.0.0' })(ListServer);
  return ListServer;
}
