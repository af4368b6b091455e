/**
 * The warning about a per-process MRTR key (no `mrtr.keys`, no `DECORUM_STATE_KEYS`) is printed
 * only where a shared key matters: on HTTP, which is scaled out. On stdio and in-process (the
 * testing kit) the server is one process, and the warning would be noise.
 */
import { pino } from 'pino';
import { createTestClient } from '@decorum/client';
import { request, StdioProcess } from '@decorum-internal/test-support';
import { rpc } from '../../packages/fastify/test/support/http.js';
import { serveHttpProcess } from '../../packages/fastify/test/support/cli-process.js';
import { FilesWizard } from '../../examples/files-wizard/src/wizard.js';

const MODULE = 'examples/files-wizard/dist/wizard.js';
const WARNING = 'Multi-instance deployments need a shared key';
/** No key at all, whatever the environment running the tests holds. */
const NO_KEY = { DECORUM_STATE_KEYS: '' };
const ELICIT = { capabilities: { elicitation: {} } };
const DELETE = { name: 'delete_file', arguments: { path: '/notes/todo.txt' } };

describe('the per-process MRTR key warning', () => {
  test('stdio: a sealed requestState, and no warning', async () => {
    const server = StdioProcess.serve(MODULE, [], NO_KEY);
    try {
      const first = await server.request(request(1, 'tools/call', DELETE, ELICIT));
      expect(first.result).toMatchObject({ resultType: 'input_required', requestState: expect.stringMatching(/^[\w-]+\.\.[\w-]+\.[\w-]+\.[\w-]+$/) });
      // A later request answered means the log of the earlier one has been written too (one sync stderr).
      await server.request(request(2, 'tools/call', { name: 'list_files', arguments: {} }));
      server.child.stdin.end();
      await server.exit();
      expect(server.stderr).not.toContain(WARNING);
    } finally {
      server.kill();
    }
  });

  test('in-process (the testing kit): MRTR rounds run, and no warning', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const previous = process.env.DECORUM_STATE_KEYS;
    delete process.env.DECORUM_STATE_KEYS;
    const client = await createTestClient(FilesWizard, {
      serverOptions: { logger },
      elicitation: async () => ({ action: 'accept', content: { confirm: true } }),
    });
    if (previous !== undefined) process.env.DECORUM_STATE_KEYS = previous;
    try {
      const result = await client.callTool('delete_file', { path: '/notes/todo.txt' });
      expect(result.content[0]).toMatchObject({ text: 'Deleted /notes/todo.txt.' });
      expect(lines.join('')).not.toContain(WARNING);
    } finally {
      await client.close();
    }
  });

  test('HTTP: the first sealed requestState warns, once', async () => {
    const served = await serveHttpProcess([MODULE, '--http', '--port', '0'], NO_KEY);
    try {
      for (const id of [1, 2]) {
        const first = await rpc(served.url, id, 'tools/call', DELETE, ELICIT);
        expect(first.json.result).toMatchObject({ resultType: 'input_required', requestState: expect.stringMatching(/^[\w-]+\.\.[\w-]+\.[\w-]+\.[\w-]+$/) });
      }
      await served.waitForStderr(WARNING);
      expect(served.stderr().split(WARNING)).toHaveLength(2);
    } finally {
      served.child.kill('SIGKILL');
    }
  });
});
