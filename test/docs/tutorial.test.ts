import { execFile } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { codeBlocks, request, ROOT, StdioProcess } from '@decorum-internal/test-support';

const EXAMPLE = join(ROOT, 'examples/notes');

/** `npx --no-install mcp-serve ARGS` run as the tutorial says, from the project's folder. */
async function mcpServe(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('npx', ['--no-install', 'mcp-serve', ...args], {
    cwd: EXAMPLE,
    env: { ...process.env, DECORUM_LOG_LEVEL: 'silent' },
  });
  return stdout;
}

/** The first README block after the line that contains `marker`. */
function blockAfter(marker: string): string {
  const at = readFileSync(join(ROOT, 'README.md'), 'utf8')
    .split('\n')
    .findIndex((line) => line.includes(marker));
  const block = codeBlocks('README.md').find((b) => b.line - 2 > at);
  if (at < 0 || !block) throw new Error(`README.md has no block after "${marker}"`);
  return block.code;
}

/** The README's five-minute tutorial, run as written: its server file, served by `npx mcp-serve`, its host entry and its --list. */
describe('the README tutorial', () => {
  test('the README shows examples/notes/src/notes.ts, character for character', () => {
    const tutorial = codeBlocks('README.md').filter((block) => block.code.startsWith('// src/notes.ts\n'));
    expect(tutorial).toHaveLength(1);
    expect(tutorial[0]!.code).toBe(readFileSync(join(EXAMPLE, 'src/notes.ts'), 'utf8'));
  });

  test("step 4: mcp-serve install --print prints the entry the README shows, with this machine's paths", async () => {
    type Entry = { mcpServers: { notes: { command: string; args: string[] } } };
    const shown = JSON.parse(blockAfter('This adds the server to')) as Entry;
    const printed = JSON.parse(await mcpServe('install', 'claude-desktop', 'src/notes.ts', '--print')) as Entry;
    // The README's project has @decorum/cli from the registry; this one runs the workspace's own bin.
    expect(printed).toEqual({
      mcpServers: {
        notes: {
          command: expect.stringMatching(/^\/.*\/node$/),
          args: [realpathSync(join(ROOT, 'packages/cli/bin/mcp-serve.js')), join(EXAMPLE, 'src/notes.ts')],
        },
      },
    });
    const { command, args } = shown.mcpServers.notes;
    expect(shown).toEqual({ mcpServers: { notes: { command, args: [args[0], args[1]] } } });
    expect([command, ...args]).toEqual([
      expect.stringMatching(/^\/.*\/node$/),
      expect.stringMatching(/^\/.*\/node_modules\/@decorum\/cli\/bin\/mcp-serve\.js$/),
      expect.stringMatching(/^\/.*\/src\/notes\.ts$/),
    ]);
  }, 60_000);

  test('step 5: --list prints what the README shows', async () => {
    const shown = blockAfter("For the tutorial's server it begins");
    expect(shown.split('\n').length).toBeGreaterThan(3);
    const output = await mcpServe('src/notes.ts', '--list');
    expect(output.slice(0, shown.length)).toBe(shown);
  }, 60_000);

  describe('npx mcp-serve src/notes.ts', () => {
    // Step 2 of the tutorial, from the example's folder; --no-install so a miss fails instead of
    // asking the registry.
    const server = new StdioProcess(['--no-install', 'mcp-serve', 'src/notes.ts'], { DECORUM_LOG_LEVEL: 'info' }, { command: 'npx', cwd: EXAMPLE });
    afterAll(async () => {
      server.child.stdin.end();
      expect(await server.exit(10_000)).toBe(0);
    });

    test('tools/list shows add_note with the schema generated from AddNote', async () => {
      const { result } = await server.request(request(1, 'tools/list'));
      expect(result.tools).toHaveLength(1);
      expect(result.tools[0]).toMatchObject({
        name: 'add_note',
        description: 'Store a note',
        inputSchema: {
          type: 'object',
          required: ['text'],
          properties: { text: { type: 'string', maxLength: 500, description: 'The note text' }, priority: { enum: ['low', 'high'], default: 'low' } },
        },
      });
    });

    test('the summarize prompt refuses with its message before there are notes', async () => {
      const response = await server.request(request(2, 'prompts/get', { name: 'summarize' }));
      expect(response.error).toEqual({ code: -32602, message: 'No notes yet' });
    });

    test('add_note stores a note, and logs through ctx.log', async () => {
      const { result } = await server.request(request(3, 'tools/call', { name: 'add_note', arguments: { text: 'buy milk', priority: 'high' } }));
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'Stored note #1' }] });
      expect(result.isError).not.toBe(true);
      await server.waitForStderr(/"priority":"high".*"msg":"note added"/);
    });

    test('a bad call is an isError result that names the failing field', async () => {
      const { result } = await server.request(request(4, 'tools/call', { name: 'add_note', arguments: { text: 'x'.repeat(501) } }));
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toContain('text');
      expect(result._meta['dev.decorum/validation'].issues).toEqual([expect.objectContaining({ pointer: '/text', keyword: 'maxLength' })]);
    });

    test('the note is a resource; a missing one is "Resource not found"', async () => {
      const { result } = await server.request(request(5, 'resources/read', { uri: 'notes://1' }));
      expect(result.contents).toEqual([{ uri: 'notes://1', mimeType: 'text/plain', text: 'buy milk' }]);
      const missing = await server.request(request(6, 'resources/read', { uri: 'notes://2' }));
      expect(missing.error).toMatchObject({ code: -32602, data: { uri: 'notes://2' } });
    });

    test('with a note stored, the prompt answers', async () => {
      const { result } = await server.request(request(7, 'prompts/get', { name: 'summarize' }));
      expect(result.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Summarize these notes:\nbuy milk' } }]);
    });
  });
});
