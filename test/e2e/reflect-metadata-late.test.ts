// A DTO module evaluated before `reflect-metadata` loses its property types (`design:type`); start-up
// must say so. reflect-metadata is a global polyfill, so each order is tried in a fresh `node` that
// loads the fixture through mcp-serve's swc hooks (decorator metadata on), but not through mcp-serve,
// which would load reflect-metadata itself first.
import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { IsString } from 'class-validator';
import { refuseLostDesignTypes } from '../../packages/core/src/schema/dto/design-types.js';
import { ROOT } from '../support/stdio-process.js';

const HOOKS = pathToFileURL(`${ROOT}packages/cli/dist/ts-loader/hooks.js`).href;
const REGISTER = `data:text/javascript,import { register } from 'node:module'; register(${JSON.stringify(HOOKS)});`;

/** Runs one entry file of the fixture; resolves with its exit code and output. */
async function run(entry: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', REGISTER, `test/fixtures/late-reflect-metadata/${entry}`], {
      cwd: ROOT,
      env: { ...process.env, DECORUM_LOG_LEVEL: 'silent' },
      timeout: 30_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('reflect-metadata loaded after a DTO module', () => {
  test('is a start-up error that names the DTO and the handler and says to import reflect-metadata first', async () => {
    const { code, stdout, stderr } = await run('late.ts');
    expect(stdout).toBe('');
    expect(code).toBe(1);
    const [errorCode, message] = stderr.split('\n');
    expect(errorCode).toBe('DECORUM_ERR_REFLECT_METADATA_LATE');
    expect(message).toMatch(/^DECORUM_ERR_REFLECT_METADATA_LATE: the DTO OrderArgs of Orders\.find has no property types \(design:type\)/);
    expect(message).toContain("evaluated before 'reflect-metadata' was loaded");
    expect(message).toContain("Make import 'reflect-metadata' the first line of the entry file");
  });

  test('imported first, the same modules start and keep every property type', async () => {
    const { code, stdout, stderr } = await run('first.ts');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout)).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, note: { type: 'string' } },
      required: ['id'],
    });
  });

  test('a handler without decorator metadata (standard decorators, esbuild, tsx) is never refused for it', () => {
    class Untyped {
      @IsString() id!: string;
    }
    Reflect.deleteMetadata('design:type', Untyped.prototype, 'id');
    expect(() => refuseLostDesignTypes(Untyped, undefined, 'S.m')).not.toThrow();
    expect(() => refuseLostDesignTypes(Untyped, [Untyped], 'S.m')).toThrow(/DECORUM_ERR_REFLECT_METADATA_LATE: the DTO Untyped of S\.m/);
  });
});
