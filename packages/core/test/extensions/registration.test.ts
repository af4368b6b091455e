import 'reflect-metadata';
import { createServer, defineExtension, DecorumStartupError, McpServer, Tool, type Extension } from '@decorum/core';
import { quietLogger } from '../support/engine-harness.js';

@McpServer({ name: 'registration', version: '1.0.0' })
class Plain {
  @Tool({ input: null })
  hello() {
    return 'hi';
  }
}

const noop = { run: () => ({}) };
const ignore = { run: () => undefined };

/** The start-up error `fn` throws (anything else fails the test). */
function thrown(fn: () => unknown): DecorumStartupError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DecorumStartupError);
  return caught as DecorumStartupError;
}

/** The start-up error of `createServer(targets, { extensions })`. */
const refusal = (extensions: readonly Extension[], targets: Function[] = [Plain]) => thrown(() => createServer(targets, { logger: quietLogger, extensions }));

describe('defineExtension', () => {
  test.each(['echo', 'com.example', 'com.example/', '/echo', 'com..example/echo', 'com.example/echo/x', '1com.example/echo', 'com.example/-echo'])(
    'refuses the id %j',
    (id) => {
      const error = thrown(() => defineExtension({ id }));
      expect(error.code).toBe('DECORUM_ERR_INVALID_EXTENSION');
      expect(error.message).toContain('reverse-DNS prefix');
    },
  );

  test('accepts reverse-DNS ids and freezes the value', () => {
    const ext = defineExtension({ id: 'com.example/echo', settings: { a: 1 }, middleware: [] });
    expect(Object.isFrozen(ext)).toBe(true);
    expect(defineExtension({ id: 'dev.decorum-tests.sub/a_b.c-d' }).id).toBe('dev.decorum-tests.sub/a_b.c-d');
  });

  test.each(['io.modelcontextprotocol/tasks', 'com.mcp/thing'])('keeps the reserved prefix of %s for built-ins', (id) => {
    expect(thrown(() => defineExtension({ id })).message).toContain('reserves');
  });

  test('refuses members of the wrong kind, naming them', () => {
    expect(thrown(() => defineExtension({ id: 'com.example/x', methods: { 'com.example/m': {} as never } })).message).toContain(
      'method "com.example/m" needs a run function',
    );
    expect(thrown(() => defineExtension({ id: 'com.example/x', middleware: ['no' as never] })).message).toContain('middleware must be an array of functions');
    expect(thrown(() => defineExtension({ id: 'com.example/x', eras: 'both-ish' as never })).message).toContain('eras');
  });
});

describe('createServer({ extensions }): checked before anything is built', () => {
  test('a value not made by defineExtension is refused', () => {
    expect(refusal([{ id: 'com.example/x' }]).code).toBe('DECORUM_ERR_INVALID_EXTENSION');
  });

  test('a duplicate id', () => {
    const a = defineExtension({ id: 'com.example/a' });
    const error = refusal([a, defineExtension({ id: 'com.example/a' })]);
    expect(error.code).toBe('DECORUM_ERR_DUPLICATE_EXTENSION');
    expect(error.message).toContain('"com.example/a" is listed twice');
  });

  test.each(['tools/call', 'initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'elicitation/create', 'roots/list', 'notifications/cancelled'])(
    'a method named like the core method %s',
    (name) => {
      const error = refusal([defineExtension({ id: 'com.example/a', methods: { [name]: noop } })]);
      expect(error.code).toBe('DECORUM_ERR_EXTENSION_METHOD_CLASH');
      expect(error.message).toContain(`"${name}", which is a core MCP method`);
    },
  );

  test('a notification named like a core request (the name switched kind)', () => {
    const error = refusal([defineExtension({ id: 'com.example/a', notifications: { 'tools/list': ignore } })]);
    expect(error.code).toBe('DECORUM_ERR_EXTENSION_METHOD_CLASH');
  });

  test.each(['tasks/get', 'notifications/tasks/status'])('the reserved prefix of %s, from a third party', (name) => {
    const ext = name.startsWith('notifications/') ? { notifications: { [name]: ignore } } : { methods: { [name]: noop } };
    const error = refusal([defineExtension({ id: 'com.example/tasks', ...ext })]);
    expect(error.code).toBe('DECORUM_ERR_EXTENSION_METHOD_CLASH');
    expect(error.message).toContain('reserved for io.modelcontextprotocol/tasks');
  });

  test("another extension's method, as a request or as a notification", () => {
    const a = defineExtension({ id: 'com.example/a', methods: { 'com.example/m': noop } });
    expect(refusal([a, defineExtension({ id: 'com.example/b', methods: { 'com.example/m': noop } })]).message).toContain(
      'extensions "com.example/a" and "com.example/b" both add "com.example/m"',
    );
    expect(refusal([a, defineExtension({ id: 'com.example/b', notifications: { 'com.example/m': ignore } })]).code).toBe('DECORUM_ERR_EXTENSION_METHOD_CLASH');
  });

  test('a tool option no installed extension checks fails start-up naming the tool', () => {
    // (`task` is checked by the built-in Tasks extension: an option of no extension's is another key.)
    @McpServer({ name: 'opts', version: '1.0.0' })
    class WithOption {
      @Tool({ input: null, priority: 'high' } as never)
      slow() {
        return 'done';
      }
    }
    const error = refusal([], [WithOption]);
    expect(error.code).toBe('DECORUM_ERR_INVALID_TOOL_OPTION');
    expect(error.message).toContain('WithOption.slow: the tool option "priority" belongs to no installed extension');
  });

  test("a tool option its extension's check refuses fails start-up naming the tool and the reason", () => {
    @McpServer({ name: 'opts', version: '1.0.0' })
    class WithOption {
      @Tool({ input: null, priority: 'sometimes' } as never)
      slow() {
        return 'done';
      }
    }
    const checker = defineExtension({
      id: 'com.example/checker',
      toolOptions: {
        priority: (value) => {
          if (value !== 'low' && value !== 'high') throw new Error(`priority must be 'low' or 'high' (got ${JSON.stringify(value)})`);
          return value;
        },
      },
    });
    const error = refusal([checker], [WithOption]);
    expect(error.code).toBe('DECORUM_ERR_INVALID_TOOL_OPTION');
    expect(error.message).toContain(
      `WithOption.slow: the tool option "priority" (com.example/checker) is invalid: priority must be 'low' or 'high' (got "sometimes")`,
    );
  });

  test('an install that throws closes those installed before it, in reverse order, and fails start-up', () => {
    const events: string[] = [];
    const installing = (name: string) =>
      defineExtension({
        id: `com.example/${name}`,
        install: () => {
          events.push(`install ${name}`);
          return { close: () => void events.push(`close ${name}`) };
        },
      });
    const broken = defineExtension({
      id: 'com.example/broken',
      install: () => {
        throw new Error('no database');
      },
    });
    const error = refusal([installing('first'), installing('second'), broken, installing('never')]);
    expect(error.code).toBe('DECORUM_ERR_EXTENSION_INSTALL_FAILED');
    expect(error.message).toContain('extension "com.example/broken" failed to install: no database');
    expect(events).toEqual(['install first', 'install second', 'close second', 'close first']);
  });

  test('installs in list order and closes on closeSubscriptions', () => {
    const events: string[] = [];
    const ext = (name: string) =>
      defineExtension({
        id: `com.example/${name}`,
        install: (host) => {
          events.push(`install ${name} ${typeof host.instanceId}`);
          return { close: () => void events.push(`close ${name}`) };
        },
      });
    const server = createServer([Plain], { logger: quietLogger, extensions: [ext('a'), ext('b')] });
    expect(events).toEqual(['install a string', 'install b string']);
    server.closeSubscriptions();
    expect(events).toEqual(['install a string', 'install b string', 'close b', 'close a']);
  });
});
