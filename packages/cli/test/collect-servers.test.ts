// What `mcp-serve MODULE` serves from a module's exports: the everything example serves itself
// only (the classes its triggers add at run time are not exported), and a module that exports
// classes with different @McpServer names is served, with a warning naming them (#47).
import { afterAll, describe, expect, it } from '@jest/globals';
import { McpServer, Tool } from '@decorum/core';
import { collectServers } from '../src/collect-servers.js';
import { request, StdioProcess } from '@decorum-internal/test-support';

const WARNING = /mcp-serve: warning: \S+ exports classes with different @McpServer names/;

describe('mcp-serve examples/everything', () => {
  const proc = StdioProcess.serve('examples/everything/src/everything.ts');
  afterAll(() => proc.kill());

  it('is served as decorum-everything, without the tools and prompts its triggers add later, and with no warning', async () => {
    const discover = await proc.request(request(1, 'server/discover'));
    expect(discover.result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('decorum-everything');
    const tools = (await proc.request(request(2, 'tools/list'))).result.tools.map((tool: { name: string }) => tool.name);
    const prompts = (await proc.request(request(3, 'prompts/list'))).result.prompts.map((prompt: { name: string }) => prompt.name);
    expect(tools).toContain('test_trigger_tool_change');
    expect(tools).not.toContain('test_added_tool');
    expect(prompts).not.toContain('test_added_prompt');
    expect(proc.stderr).not.toMatch(WARNING);
  });
});

describe('a module exporting classes with different @McpServer names', () => {
  it('mcp-serve serves them merged and warns once, naming each class and its name', async () => {
    const proc = StdioProcess.serve('packages/cli/test/fixtures/two-server-names.ts');
    try {
      const tools = (await proc.request(request(1, 'tools/list'))).result.tools.map((tool: { name: string }) => tool.name);
      expect(tools.sort()).toEqual(['balance', 'list_orders', 'ping']);
      const line = (await proc.waitForStderr(WARNING)).split('\n').find((l) => WARNING.test(l));
      // A module namespace lists its exports in alphabetical order: the first is BillingServer.
      expect(line).toContain('BillingServer ("billing"), OrdersServer ("orders")');
      expect(line).toContain('one server named "billing"');
      expect(line).toContain('serverOptions.catalogue');
      expect(line).not.toContain('Helpers');
      expect(proc.stderr.split('\n').filter((l) => WARNING.test(l))).toHaveLength(1);
    } finally {
      proc.kill();
    }
  });

  it('one @McpServer name, with classes that only have decorated members, is no warning', () => {
    @McpServer({ name: 'one', version: '1.0.0' })
    class First {
      @Tool({ description: 'a', input: null })
      a(): string {
        return 'a';
      }
    }
    @McpServer({ name: 'one', version: '2.0.0' })
    class Second {}
    class Members {
      @Tool({ description: 'b', input: null })
      b(): string {
        return 'b';
      }
    }
    const warnings: string[] = [];
    expect(collectServers({ First, Second, Members }, 'm.ts', new Set(), (line) => warnings.push(line))).toEqual([First, Second, Members]);
    expect(warnings).toEqual([]);
  });

  it('a class left out as the catalogue does not count', () => {
    @McpServer({ name: 'main', version: '1.0.0' })
    class Main {}
    @McpServer({ name: 'added', version: '1.0.0' })
    class Added {}
    const warnings: string[] = [];
    expect(collectServers({ Main, Added }, 'm.ts', new Set([Added]), (line) => warnings.push(line))).toEqual([Main]);
    expect(warnings).toEqual([]);
    collectServers({ Main, Added }, 'm.ts', new Set(), (line) => warnings.push(line));
    expect(warnings).toEqual([expect.stringMatching(WARNING)]);
  });
});
