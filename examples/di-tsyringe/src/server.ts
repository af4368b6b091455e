// Server classes from a real DI container (tsyringe): constructor injection, singletons, and the
// same module served by `mcp-serve`, which takes the exported `container` to build the classes.
import 'reflect-metadata';
import { container, injectable, singleton } from 'tsyringe';
import { McpServer, Tool, type ToolContext } from '@decorum/core';

/** A service the container makes once and injects wherever it is asked for. */
@singleton()
export class VisitCounter {
  private visits = 0;
  next(): number {
    return ++this.visits;
  }
}

/** Another injected service, with its own dependency. */
@injectable()
export class Greeter {
  constructor(private readonly counter: VisitCounter) {}
  greet(name: string): string {
    return `Hello, ${name}! You are visitor #${this.counter.next()}.`;
  }
}

@injectable()
@McpServer({ name: 'di-tsyringe', version: '1.0.0', description: 'Server classes built by tsyringe' })
export class GreeterServer {
  // tsyringe reads the constructor's parameter types (emitDecoratorMetadata; mcp-serve's loader keeps them).
  constructor(private readonly greeter: Greeter) {}

  @Tool({ description: 'Greets someone', input: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } })
  greet(args: { name: string }, ctx: ToolContext) {
    ctx.log.debug({ name: args.name }, 'greeting');
    return this.greeter.greet(args.name);
  }
}

// `mcp-serve src/server.ts` builds every exported server class with `container.resolve(Class)`.
export { container };
