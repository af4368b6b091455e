// Hardening risk: author-supplied patterns ran on the event loop with no budget (`/^(a+)+$/` with
// 28 characters stalled every client ~15 s), and on the DTO path twice per request. Unsafe patterns
// are refused at start-up by default; a pattern runs at most once per value per request.
import { afterEach, describe, expect, jest, test } from '@jest/globals';
import 'reflect-metadata';
import { IsString, Matches } from 'class-validator';
import { Type } from 'typebox';
import { createServer, DecorumStartupError, McpServer, Tool } from '@decorum/core';
import { createMcpApp } from '@decorum/fastify';
import { compileDtoValidator } from '../../packages/core/src/schema/dto/validator.js';
import { LogCapture } from '../../packages/fastify/test/support/app.js';
import { StdioProcess } from '@decorum-internal/test-support';
import { UnsafePattern } from './fixtures/unsafe-pattern.js';

@McpServer({ name: 'typebox-unsafe', version: '1.0.0' })
class TypeBoxUnsafe {
  @Tool({ input: Type.Object({ id: Type.String({ pattern: '^([a-z0-9]+-?)*$' }) }) })
  find({ id }: { id: string }) {
    return id;
  }
}

describe('at start-up', () => {
  test.each([
    ['a @Matches DTO', UnsafePattern, '^(a+)+$'],
    ['a TypeBox pattern', TypeBoxUnsafe, '^([a-z0-9]+-?)*$'],
  ])('%s with a catastrophic pattern is refused by default, with the item, the pattern and the fix', (_label, cls, pattern) => {
    let error: unknown;
    try {
      createServer([cls]);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(DecorumStartupError);
    expect((error as Error).message).toContain('DECORUM_ERR_UNSAFE_PATTERN');
    expect((error as Error).message).toContain(JSON.stringify(pattern));
    expect((error as Error).message).toContain("unsafePatterns: 'warn'");
  });

  test("unsafePatterns: 'warn' logs it and serves", () => {
    const logs = new LogCapture();
    const server = createServer([UnsafePattern], { unsafePatterns: 'warn', logger: logs.logger });
    expect(server.registry.tools.get?.('word') ?? [...server.registry.tools.values()][0]).toBeDefined();
    expect(logs.lines.find((l) => l.pattern === '^(a+)+$')?.level).toBe(40);
  });

  test('createMcpApp (HTTP) rejects, and mcp-serve (stdio) exits 1 saying why', async () => {
    await expect(createMcpApp([UnsafePattern], { logger: new LogCapture().logger })).rejects.toThrow(/DECORUM_ERR_UNSAFE_PATTERN/);
    const proc = StdioProcess.serve('test/hardening/fixtures/unsafe-pattern.ts');
    try {
      expect(await proc.exit(10_000)).toBe(1);
      expect(proc.stderr).toContain('DECORUM_ERR_UNSAFE_PATTERN');
      expect(proc.stderr).not.toMatch(/\n\s+at /); // one clear line, no stack
    } finally {
      proc.kill();
    }
  });
});

class Slug {
  @IsString() @Matches(/^[a-z]+(?:-[a-z]+)*$/) slug!: string;
  @IsString({ each: true }) @Matches(/^[a-z]+(?:-[a-z]+)*$/, { each: true }) tags!: string[];
}

describe('per request, on the DTO path', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  test('a value the fast check refuses is not tested again by class-validator', async () => {
    const validate = compileDtoValidator(Slug);
    expect(validate.strategy).toBe('json-schema');
    const exec = jest.spyOn(RegExp.prototype, 'exec');
    const runs = () => exec.mock.contexts.filter((re) => (re as RegExp).source === '^[a-z]+(?:-[a-z]+)*$').length;
    const outcome = await validate({ slug: 'Not A Slug', tags: ['ok', 'Bad Tag', 'fine-too'] });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.issues.map((i) => `${i.pointer} ${i.keyword}`)).toEqual(['/slug pattern', '/tags/1 pattern']);
    // Each of the four values once at most (the check may stop at the first failure).
    expect(runs()).toBeLessThanOrEqual(4);
    exec.mockClear();
    expect((await validate({ slug: 'a-slug', tags: ['x'] })).ok).toBe(true);
    expect(runs()).toBe(2);
  });
});
