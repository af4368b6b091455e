// First: the DTO classes below record their property types (design:type) through it as they load.
import 'reflect-metadata';
import { McpServer, Prompt, Resource, Tool } from '@decorum/core';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { Type, type Static } from 'typebox';

/** The arguments of `greet`: its input schema is generated from these class-validator decorators. */
export class GreetArgs {
  @IsString() @MaxLength(100) name!: string;
  @IsOptional() @IsIn(['en', 'fr']) language?: 'en' | 'fr';
}

/** The arguments of `add`, as a TypeBox schema. */
const AddArgs = Type.Object({ a: Type.Number(), b: Type.Number() });

const ExplainArgs = Type.Object({ topic: Type.String({ description: 'What to explain' }) });

@McpServer({ name: '__NAME__', version: '0.1.0', instructions: 'Greets people and adds numbers.' })
export class Server {
  @Tool({ description: 'Greets someone by name' })
  greet(args: GreetArgs): string {
    return args.language === 'fr' ? `Bonjour, ${args.name} !` : `Hello, ${args.name}!`;
  }

  @Tool({ description: 'Adds two numbers', input: AddArgs })
  add(args: Static<typeof AddArgs>): string {
    return String(args.a + args.b);
  }

  @Resource({ uri: 'info://about', mimeType: 'text/plain', description: 'What this server is' })
  about(): string {
    return '__NAME__: a Decorum MCP server.';
  }

  @Prompt({ description: 'Asks for a short explanation', input: ExplainArgs })
  explain(args: Static<typeof ExplainArgs>): string {
    return `Explain ${args.topic} in three sentences.`;
  }
}
