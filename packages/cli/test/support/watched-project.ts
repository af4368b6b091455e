import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, ROOT, StdioProcess } from '@decorum-internal/test-support';

/**
 * A project outside the repository (its node_modules is the repository's, for @decorum/core) with
 * one server module to edit, served by `mcp-serve --watch` over stdio once `serve()` is called.
 */
export class WatchedProject {
  readonly dir = mkdtempSync(join(tmpdir(), 'decorum-watch-'));
  readonly server = join(this.dir, 'server.ts');
  private served: StdioProcess | undefined;

  constructor(tools: string[]) {
    symlinkSync(join(ROOT, 'node_modules'), join(this.dir, 'node_modules'), 'dir');
    this.write(tools);
  }

  /** Writes the module: a server with a tool per name (each answers its name) and `members`, then `topLevel` code. */
  write(tools: string[], { topLevel = '', members = '' } = {}): void {
    const methods = tools.map((name) => `  @Tool({ input: null })\n  ${name}() {\n    return '${name}';\n  }\n`).join('\n');
    writeFileSync(
      this.server,
      `import { McpServer, Tool } from '@decorum/core';\n\n@McpServer({ name: 'watched', version: '1.0.0' })\nexport class Watched {\n${methods}${members}}\n${topLevel}\n`,
    );
  }

  /** Starts `mcp-serve MODULE --watch`; resolves once it watches. */
  async serve(): Promise<StdioProcess> {
    this.served = StdioProcess.serve(this.server, ['--watch']);
    await this.served.waitForStderr('mcp-serve: watching', 15_000);
    return this.served;
  }

  /** Sends a request and waits for its answer, with room for a loaded machine (a new version compiles its validators on first use). */
  ask(id: number, method: string, params?: Record<string, unknown>): Promise<Record<string, any>> {
    const p = this.served!;
    p.send(request(id, method, params));
    return p.waitFor((m) => m.id === id && ('result' in m || 'error' in m), 20_000);
  }

  /** The names `tools/list` answers now. */
  async toolNames(id: number): Promise<string[]> {
    return (await this.ask(id, 'tools/list')).result.tools.map((t: { name: string }) => t.name);
  }

  /** The text a tool answers. */
  async callText(id: number, name: string): Promise<string> {
    return (await this.ask(id, 'tools/call', { name, arguments: {} })).result.content[0].text;
  }

  /** Stops the server and removes the project. */
  remove(): void {
    this.served?.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
