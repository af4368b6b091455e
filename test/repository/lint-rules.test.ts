import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from '@decorum-internal/test-support';

/** Small bad samples, laid out like the repository, each breaking one rule (and one clean control). */
const SAMPLES: Record<string, string> = {
  'packages/core/src/bad/transport.ts': "import Fastify from 'fastify';\nexport const app = Fastify;\n",
  'packages/core/src/bad/reach.ts': "import { line } from '../../../stdio/src/line.js';\nexport const framed = line;\n", // self-contained: sample (inside the scratch tree)
  'packages/core/src/engine/thing.ts': 'export const thing = 1;\n',
  'packages/core/src/asks/mrtr/uses-engine.ts': "import { thing } from '../../engine/thing.js';\nexport const twice = thing * 2;\n",
  'packages/core/src/bad/a.ts': "import { b } from './b.js';\nexport const a = (): number => b();\n",
  'packages/core/src/bad/b.ts': "import { a } from './a.js';\nexport const b = (): number => a.length;\n",
  'packages/core/src/types/c.ts': "import type { D } from './d.js';\nexport interface C {\n  d?: D;\n}\n",
  'packages/core/src/types/d.ts': "import type { C } from './c.js';\nexport interface D {\n  c?: C;\n}\n",
  'packages/stdio/src/line.ts': "import { thing } from '../../core/src/engine/thing.js';\nexport const line = String(thing);\n",
  'packages/core/test/stale.test.ts': '// eslint-disable-next-line no-sparse-arrays\nexport const list = [1, 2, 3];\n',
  'packages/core/src/asks/mrtr/fine.ts': "import type { C } from '../../types/c.js';\nexport const fine = (c: C): boolean => c.d === undefined;\n",
  'test/support/shared.ts': 'export const shared = 1;\n',
  'packages/fastify/test/support/app.ts': 'export const app = 1;\n',
  'packages/core/test/reaches-root.test.ts': "import { shared } from '../../../test/support/shared.js';\nexport const one = shared;\n", // self-contained: sample (inside the scratch tree)
  'packages/client/test/reaches-fastify.test.ts': "import { app } from '../../fastify/test/support/app.js';\nexport const one = app;\n",
  'packages/fastify/test/own-support.test.ts': "import { app } from './support/app.js';\nexport const one = app;\n",
  'packages/client/src/uses-a-server.ts': "import { mcpPlugin } from '@decorum/fastify';\nexport const plugin = mcpPlugin;\n",
  'packages/fastify/src/kit.ts': "import { LinkedList } from '@decorum/transport-kit';\nexport const list = new LinkedList();\n",
  'packages/transport-kit/src/up.ts': "import { McpEngine } from '@decorum/core/transport';\nexport const engine = McpEngine;\n",
};

interface LintResult {
  filePath: string;
  messages: Array<{ ruleId: string | null; message: string }>;
}

/**
 * ESLint with this repository's own config file (copied byte for byte, so its path rules anchor to
 * the scratch tree) on the samples: what each file is told, as `rule: message` lines.
 */
function lintSamples(): Record<string, string[]> {
  const scratch = mkdtempSync(join(tmpdir(), 'decorum-lint-'));
  try {
    copyFileSync(join(ROOT, 'eslint.config.js'), join(scratch, 'eslint.config.js'));
    symlinkSync(join(ROOT, 'node_modules'), join(scratch, 'node_modules'), 'dir');
    const tsconfig = {
      compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: [] },
      include: ['packages'],
    };
    writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify(tsconfig));
    for (const [file, text] of Object.entries(SAMPLES)) {
      mkdirSync(dirname(join(scratch, file)), { recursive: true });
      writeFileSync(join(scratch, file), text);
    }
    const run = spawnSync(process.execPath, ['node_modules/eslint/bin/eslint.js', '--no-cache', '--format', 'json', '.'], {
      cwd: scratch,
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (run.status !== 0 && run.status !== 1) throw new Error(`eslint failed (status ${run.status}): ${run.stderr}`);
    const results = JSON.parse(run.stdout) as LintResult[];
    return Object.fromEntries(results.map((r) => [r.filePath.slice(scratch.length + 1), r.messages.map((m) => `${m.ruleId ?? 'directive'}: ${m.message}`)]));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

describe('the lint rules fire on what they forbid', () => {
  let told: Record<string, string[]>;
  beforeAll(() => {
    told = lintSamples();
  }, 60_000);

  test('the core never imports a transport', () => {
    expect(told['packages/core/src/bad/transport.ts']).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*@decorum\/core is the data layer: it never imports a transport/),
    ]);
  });

  test("the core never imports another package's files", () => {
    expect(told['packages/core/src/bad/reach.ts']).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*the core never imports another package/)]);
  });

  test('asks/ never imports engine/', () => {
    expect(told['packages/core/src/asks/mrtr/uses-engine.ts']).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*asks\/ is below the engine/)]);
  });

  test("a transport imports @decorum/core, not the core's files", () => {
    expect(told['packages/stdio/src/line.ts']).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*import @decorum\/core, not its files/)]);
  });

  test('an import cycle is refused in each of its files', () => {
    expect(told['packages/core/src/bad/a.ts']).toEqual([expect.stringMatching(/^import-x\/no-cycle: Dependency cycle detected/)]);
    expect(told['packages/core/src/bad/b.ts']).toEqual([expect.stringMatching(/^import-x\/no-cycle: Dependency cycle detected/)]);
  });

  test('a cycle of type-only imports is not counted (it is erased at compile time)', () => {
    expect(told['packages/core/src/types/c.ts']).toEqual([]);
    expect(told['packages/core/src/types/d.ts']).toEqual([]);
  });

  test('test files are linted: a disable comment that disables nothing is an error', () => {
    expect(told['packages/core/test/stale.test.ts']).toEqual([
      expect.stringMatching(/^directive: Unused eslint-disable directive \(no problems were reported from 'no-sparse-arrays'\)/),
    ]);
  });

  test("a package's tests never reach into the root test/ folder or another package's tests", () => {
    expect(told['packages/core/test/reaches-root.test.ts']).toEqual([
      expect.stringMatching(/^decorum\/tests-stay-in-their-package: '\.\.\/\.\.\/\.\.\/test\/support\/shared\.js' reaches into the root test\/ folder/),
    ]);
    expect(told['packages/client/test/reaches-fastify.test.ts']).toEqual([
      expect.stringMatching(/^decorum\/tests-stay-in-their-package: .* reaches into another package's tests/),
    ]);
    expect(told['packages/fastify/test/own-support.test.ts']).toEqual([]);
  });

  test('the client depends on core alone; @decorum/transport-kit is for the transports and imports none of ours', () => {
    expect(told['packages/client/src/uses-a-server.ts']).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*the client depends on @decorum\/core alone/),
    ]);
    expect(told['packages/transport-kit/src/up.ts']).toEqual([expect.stringMatching(/^no-restricted-imports: .*below every package/)]);
    expect(told['packages/fastify/src/kit.ts']).toEqual([]);
  });

  test('a file that breaks no rule is told nothing', () => {
    expect(told['packages/core/src/asks/mrtr/fine.ts']).toEqual([]);
    expect(told['packages/core/src/engine/thing.ts']).toEqual([]);
  });
});
