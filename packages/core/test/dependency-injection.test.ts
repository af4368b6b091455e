import 'reflect-metadata';
import { createServer, McpServer, Tool, type ServerClass } from '@decorum/core';
import { harness, quietLogger } from './support/engine-harness.js';
import { request } from '@decorum-internal/test-support';

class Greeter {
  constructor(readonly greeting: string) {}
}

@McpServer({ name: 'di', version: '1.0.0' })
class Greeting {
  constructor(private readonly greeter: Greeter) {}
  @Tool({ input: null }) greet() {
    return `${this.greeter.greeting}, world`;
  }
}

class Later {
  constructor(private readonly greeter: Greeter) {}
  @Tool({ input: null }) later() {
    return `${this.greeter.greeting} later`;
  }
}

/** A hand-made container: classes to factories. */
class HandContainer {
  readonly asked: string[] = [];
  private readonly factories = new Map<ServerClass, () => object>([
    [Greeting, () => new Greeting(new Greeter('Hello'))],
    [Later, () => new Later(new Greeter('Hi'))],
  ]);
  resolve(cls: ServerClass): object {
    this.asked.push(cls.name);
    return this.factories.get(cls)!();
  }
}

describe('dependency injection', () => {
  test('a resolve hook builds server classes: constructor arguments work', async () => {
    const { call } = harness([Greeting], { resolve: (cls) => (cls === Greeting ? new Greeting(new Greeter('Hej')) : new (cls as new () => object)()) });
    expect((await call(request(1, 'tools/call', { name: 'greet' })))?.result.content[0].text).toBe('Hej, world');
  });

  test('a container with resolve(Class), also for classes added live', async () => {
    const container = new HandContainer();
    const { server, call } = harness([Greeting], { container });
    expect((await call(request(1, 'tools/call', { name: 'greet' })))?.result.content[0].text).toBe('Hello, world');
    server.live.add(Later);
    expect((await call(request(2, 'tools/call', { name: 'later' })))?.result.content[0].text).toBe('Hi later');
    expect(container.asked).toEqual(['Greeting', 'Later']);
  });

  test('a container with get(Class) (NestJS, Inversify style)', async () => {
    const container = { get: (cls: ServerClass) => (cls === Greeting ? new Greeting(new Greeter('Salut')) : undefined) };
    const { call } = harness([Greeting], { container });
    expect((await call(request(1, 'tools/call', { name: 'greet' })))?.result.content[0].text).toBe('Salut, world');
  });

  test('start-up errors say what is wrong', () => {
    expect(() => createServer([Greeting], { logger: quietLogger, container: {} as never })).toThrow(
      'container must have a resolve(Class) or get(Class) method',
    );
    expect(() => createServer([Greeting], { logger: quietLogger, container: { get: () => undefined } })).toThrow(
      'the container gave undefined for Greeting, not an instance of it (is the class registered?)',
    );
    expect(() => createServer([Greeting], { logger: quietLogger, resolve: () => ({}) })).toThrow(
      'the resolve hook gave object for Greeting, not an instance of it',
    );
  });
});
