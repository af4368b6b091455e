import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { MCP_SERVE, ROOT } from '@decorum-internal/test-support';

const run = promisify(execFile);

/** Interop: the official v2 client, with an elicitation handler, completes our MRTR tools. */
describe('official client ↔ files-wizard over stdio (MRTR)', () => {
  test('the client fulfils input_required rounds and gets the complete results', async () => {
    const { stdout } = await run(
      process.execPath,
      [`${ROOT}test/interop/clients/sdk-mrtr-client.mjs`, process.execPath, MCP_SERVE, 'examples/files-wizard/dist/wizard.js'],
      { cwd: ROOT, timeout: 15_000 },
    );
    const outcome = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(outcome.failed).toBeUndefined();
    expect(outcome.deleted.content[0].text).toBe('Deleted /notes/ideas.md.');
    expect(outcome.listed.content[0].text).not.toContain('/notes/ideas.md');
    expect(outcome.trip.content[0].text).toMatch(/^Booked Lisbon in spring for 3 \(Ada\), quote Q-\d+, with insurance\.$/);
    expect(outcome.asked).toEqual([
      'Delete /notes/ideas.md? This cannot be undone.',
      'Who is travelling?',
      'Where and when?',
      'Book Lisbon in spring for 3 (Ada)?',
    ]);
  });
});
