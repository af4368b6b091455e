/**
 * SLOW (~20–60 s; `npm install` from the npm cache and registry): packs every package under
 * packages/ and installs the tarballs into a fresh project in the OS temp folder, outside the
 * monorepo, so nothing can come from the workspace links or hoisted devDependencies.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request, installProject, packWorkspaces, publishedWorkspaces, type PackedPackage, ROOT, StdioProcess } from '@decorum-internal/test-support';

const run = promisify(execFile);

/** A server in plain JavaScript: Node 20 has no decorator syntax, so the decorators are applied as calls. */
const JS_SERVER = `import { McpServer, Tool } from '@decorum/core';

export class Hello {
  hello() {
    return 'hello from an installed Decorum';
  }
}
Tool({ input: null, description: 'Says hello' })(Hello.prototype, 'hello', Object.getOwnPropertyDescriptor(Hello.prototype, 'hello'));
McpServer({ name: 'hello', version: '1.0.0' })(Hello);
`;

/** A TypeScript user of every package's types (checked with skipLibCheck off: our .d.ts files too). */
const TS_SERVER = `import { McpServer, Tool, type ToolContext } from '@decorum/core';
import { serveStdio, type StdioServer } from '@decorum/stdio';
import { serveHttp, type HttpServer } from '@decorum/fastify';
import { buildProgram } from '@decorum/cli';
import { RedisNotificationBus, RedisRateLimitStore, type RedisBusOptions } from '@decorum/redis';
import { createTestClient, McpClient, type TestClient } from '@decorum/client';

@McpServer({ name: 'typed', version: '1.0.0' })
export class Typed {
  @Tool({ input: null, description: 'Says hello' })
  hello(_args: Record<string, never>, ctx: ToolContext): string {
    return \`hello \${ctx.client.info?.name ?? 'someone'}\`;
  }
}

export function start(http: boolean): StdioServer | Promise<HttpServer> {
  return http ? serveHttp([Typed], { port: 0 }) : serveStdio([Typed]);
}
export const program = buildProgram(async () => {});

/** Instances behind a load balancer: one Redis bus (and its shared rate-limit counts). */
export function startInstance(url: string): Promise<HttpServer> {
  const options: RedisBusOptions = { url, bufferLimit: 100 };
  const notificationBus = new RedisNotificationBus(options);
  const store: RedisRateLimitStore = notificationBus.rateLimitStore;
  return serveHttp([Typed], { port: 0, notificationBus, rateLimit: { points: 600, durationMs: 60_000, store } });
}

/** The testing kit: a client wired to the server in this process. */
export async function greeting(): Promise<string> {
  const client: TestClient = await createTestClient(Typed);
  try {
    const result = await client.callTool('hello', {});
    return client instanceof McpClient && result.content[0]?.type === 'text' ? result.content[0].text : '';
  } finally {
    await client.close();
  }
}
`;

/** At run time (not only in types): the client's testing kit against the JavaScript server; the Redis package loads. */
const RUNTIME_CHECK = `import { createTestClient } from '@decorum/client';
import { RedisNotificationBus, RedisRateLimitStore } from '@decorum/redis';
import { Hello } from './server.mjs';

const client = await createTestClient(Hello);
const result = await client.callTool('hello', {});
await client.close();
console.log(JSON.stringify({ text: result.content[0].text, redis: [typeof RedisNotificationBus, typeof RedisRateLimitStore] }));
`;

/** A misuse the types must reject: proof that the check above saw the real declarations, not `any`. */
const TS_MISUSE = `import { serveHttp } from '@decorum/fastify';
import { Typed } from './server.js';

export const wrongPort = serveHttp([Typed], { port: 'eighty' });
`;

/**
 * Type-checks the project through the TypeScript API, reporting the diagnostics of the project's own
 * files and of every declaration file under node_modules/@decorum (skipLibCheck is off), but not of
 * the other libraries' declarations: `tsc` checks every .d.ts in the program, and TypeBox's alone take
 * ~25 s of checking, which says nothing about ours. Our files are still checked against theirs.
 */
const CHECK_TYPES = `import ts from 'typescript';

const config = ts.getParsedCommandLineOfConfigFile('tsconfig.json', {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => {
    throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\\n'));
  },
});
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
const ours = program.getSourceFiles().filter((f) => !f.fileName.includes('/node_modules/') || f.fileName.includes('/node_modules/@decorum/'));
const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\\n' };
const format = (diagnostics) => diagnostics.map((d) => ts.formatDiagnostic(d, host).trim());
console.log(JSON.stringify({
  skipLibCheck: config.options.skipLibCheck,
  global: format([...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()]),
  files: Object.fromEntries(ours.map((f) => [f.fileName.slice(process.cwd().length + 1), format([...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)])])),
}));
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    noEmit: true,
    skipLibCheck: false,
    types: ['node'],
  },
  files: ['server.ts', 'misuse.ts'],
};

describe('npm pack of every package installs and works outside the monorepo', () => {
  let dir: string;
  let app: string;
  let packed: PackedPackage[];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'decorum-packages-'));
    packed = packWorkspaces(dir);
    app = join(dir, 'app');
    mkdirSync(app);
    installProject(app, [...packed.map((p) => p.tarball), 'typescript@5.9.3', '@types/node@20']);
    writeFileSync(join(app, 'server.mjs'), JS_SERVER);
    writeFileSync(join(app, 'server.ts'), TS_SERVER);
    writeFileSync(join(app, 'misuse.ts'), TS_MISUSE);
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    writeFileSync(join(app, 'check-types.mjs'), CHECK_TYPES);
    writeFileSync(join(app, 'runtime-check.mjs'), RUNTIME_CHECK);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('packs every workspace package, each with its build, types and README but no build cache', () => {
    expect(packed.map((p) => p.name).sort()).toEqual(
      publishedWorkspaces()
        .map((w) => JSON.parse(readFileSync(join(ROOT, w, 'package.json'), 'utf8')).name)
        .sort(),
    );
    for (const p of packed) {
      expect(p.files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts']));
      expect(p.files.filter((f) => f.endsWith('.tsbuildinfo') || /^(?:src|test)\//.test(f))).toEqual([]);
      const manifest = JSON.parse(readFileSync(join(app, 'node_modules', p.name, 'package.json'), 'utf8'));
      expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
    }
    // The private @decorum/transport-kit travels inside each tarball that uses it, never on its own.
    expect(packed.map((p) => p.name)).not.toContain('@decorum/transport-kit');
    for (const p of packed.filter((p) => ['@decorum/core', '@decorum/stdio', '@decorum/fastify'].includes(p.name)))
      expect(p.files).toEqual(
        expect.arrayContaining(['node_modules/@decorum/transport-kit/package.json', 'node_modules/@decorum/transport-kit/dist/index.js']),
      );
  });

  it('the installed mcp-serve serves a JavaScript module over stdio and answers tools/call', async () => {
    const p = new StdioProcess([join(app, 'node_modules/.bin/mcp-serve'), join(app, 'server.mjs')]);
    try {
      const { result } = await p.request(request(1, 'tools/call', { name: 'hello', arguments: {} }));
      expect(result.content).toEqual([{ type: 'text', text: 'hello from an installed Decorum' }]);
    } finally {
      p.kill();
    }
  });

  it('the installed mcp-serve compiles a .ts module with its own swc (mcp-serve --list)', async () => {
    const { stdout } = await run(process.execPath, [join(app, 'node_modules/.bin/mcp-serve'), join(app, 'server.ts'), '--list', '--json'], { cwd: app });
    expect(JSON.parse(stdout)['tools/list'][0].tools.map((t: { name: string }) => t.name)).toEqual(['hello']);
  });

  it('@decorum/client and @decorum/redis load from their tarballs: the testing kit calls the JavaScript server', async () => {
    const { stdout } = await run(process.execPath, [join(app, 'runtime-check.mjs')], { cwd: app });
    expect(JSON.parse(stdout)).toEqual({ text: 'hello from an installed Decorum', redis: ['function', 'function'] });
  });

  it('the installed create-decorum bin scaffolds a project that depends on the tarballs', async () => {
    const target = join(dir, 'scaffolded');
    const { stdout } = await run(join(app, 'node_modules/.bin/create-decorum'), [target, '--decorum-from', dir], { cwd: dir });
    expect(stdout).toContain(`Created ${target}.`);
    for (const file of ['package.json', 'tsconfig.json', '.gitignore', 'README.md', 'src/server.ts', 'test/server.test.mjs'])
      expect(existsSync(join(target, file))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: 'scaffolded', type: 'module', scripts: { start: 'mcp-serve src/server.ts', test: expect.any(String) } });
    const core = packed.find((p) => p.name === '@decorum/core')!;
    expect(manifest.dependencies['@decorum/core']).toBe(`file:../${basename(core.tarball)}`);
    expect(readFileSync(join(target, 'src/server.ts'), 'utf8')).toContain('@McpServer');
  });

  it('a TypeScript file importing the packages type-checks against the installed .d.ts files, which check too', async () => {
    const { stdout } = await run(process.execPath, [join(app, 'check-types.mjs')], { cwd: app, maxBuffer: 16 * 1024 * 1024 });
    const report = JSON.parse(stdout) as { skipLibCheck: boolean; global: string[]; files: Record<string, string[]> };
    expect(report.skipLibCheck).toBe(false);
    expect(report.global).toEqual([]);
    const declarations = Object.keys(report.files).filter((f) => f.endsWith('.d.ts'));
    for (const p of packed.filter((p) => p.name.startsWith('@decorum/'))) expect(declarations).toContain(`node_modules/${p.name}/dist/index.d.ts`);
    const { 'misuse.ts': misuse, ...rest } = report.files;
    expect(Object.keys(rest)).toContain('server.ts');
    expect(Object.entries(rest).filter(([, errors]) => errors.length > 0)).toEqual([]);
    expect(misuse).toEqual([expect.stringMatching(/^misuse\.ts\(4,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/)]);
  }, 60_000);
});
