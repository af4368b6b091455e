import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Runs the built example as a user would, answering its terminal question. */
function run(answer: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`${ROOT}examples/host/dist/host.js`], { env: { ...process.env, DECORUM_LOG_LEVEL: 'silent' } });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (chunk.includes('Allow? [y/N]')) child.stdin.write(`${answer}\n`);
    });
    child.stderr.resume();
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${out}`))));
  });
}

describe('examples/host', () => {
  test('prints the merged list of three servers, routes a call, and honours a "no"', async () => {
    const out = await run('n');
    expect(out).toMatch(/connected weather \(modern\)\nconnected files \(modern\)\nconnected everything \(legacy\)/);
    expect(out).toContain('weather_weather_current (read-only)');
    expect(out).toContain('files_delete_file');
    expect(out).toContain('everything_echo');
    expect(out).toContain('weather_weather_current → Current weather in London');
    expect(out).toContain('files wants a DESTRUCTIVE call: delete_file({"path":"/notes/ideas.md"})');
    expect(out).toMatch(/files_delete_file → The call to files_delete_file was not approved/);
    expect(out).toMatch(/files_list_files → .*\/notes\/ideas\.md/);
  });

  test('a "yes" lets the destructive call through', async () => {
    const out = await run('y');
    expect(out).toContain('files_delete_file → Deleted /notes/ideas.md.');
    expect(out).not.toMatch(/files_list_files → .*\/notes\/ideas\.md/);
  });
});
