import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServer } from '@decorum/core';
import { container, GreeterServer, VisitCounter } from '../src/server.js';
import { request } from '@decorum-internal/test-support';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('server classes from tsyringe', () => {
  test('createServer({ container }) gets the class from the container, its dependencies injected', async () => {
    const server = createServer([GreeterServer], { container, logger: (await import('pino')).pino({ level: 'silent' }) });
    const call = async (id: number) => {
      const response = (await server.engine.handle(request(id, 'tools/call', { name: 'greet', arguments: { name: 'Ada' } }), { notify: () => {} })) as { result: { content: Array<{ text: string }> } };
      return response.result.content[0].text;
    };
    expect(await call(1)).toBe('Hello, Ada! You are visitor #1.');
    expect(await call(2)).toBe('Hello, Ada! You are visitor #2.');
    // The server's Greeter got the container's one VisitCounter.
    expect(container.resolve(VisitCounter).next()).toBe(3);
  });

  test('mcp-serve uses the exported container (a real child process over stdio)', async () => {
    const child = spawn(process.execPath, [`${ROOT}packages/cli/dist/bin.js`, 'examples/di-tsyringe/src/server.ts'], { cwd: ROOT, env: { ...process.env, DECORUM_LOG_LEVEL: 'warn' } });
    try {
      let out = '';
      child.stdout.setEncoding('utf8');
      const line = new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: string) => {
          out += chunk;
          if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
        });
        child.on('exit', (code) => reject(new Error(`mcp-serve exited with ${code}`)));
      });
      child.stdin.write(`${JSON.stringify(request(1, 'tools/call', { name: 'greet', arguments: { name: 'Grace' } }))}\n`);
      const answer = JSON.parse(await line);
      expect(answer.result.content[0].text).toBe('Hello, Grace! You are visitor #1.');
    } finally {
      child.kill('SIGKILL');
    }
  });
});
