import { FilesWizard } from '../../../examples/files-wizard/src/wizard.js';
import { withCharacterReplaced } from '@decorum-internal/test-support';
import { rpc } from './support/http.js';
import { startApp, type TestApp } from './support/app.js';

const ELICIT = { capabilities: { elicitation: {} } };
const keys = [Buffer.alloc(32, 3).toString('base64')];

/**
 * MRTR over Streamable HTTP, with two instances sharing a state key behind an imaginary load
 * balancer: every round may land on either one, and nothing but the request carries state.
 */
describe('MRTR over HTTP', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startApp({ servers: [new FilesWizard()], mrtr: { keys } });
    b = await startApp({ servers: [new FilesWizard()], mrtr: { keys } });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  test('two rounds: input_required on one instance, completed on the other', async () => {
    const args = { name: 'delete_file', arguments: { path: '/notes/todo.txt' } };
    const first = await rpc(a.url, 'd1', 'tools/call', args, ELICIT);
    expect(first.status).toBe(200);
    expect(first.json.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { confirm: { method: 'elicitation/create' } },
      requestState: expect.any(String),
    });
    expect(first.json.result).not.toHaveProperty('ttlMs');
    const second = await rpc(
      b.url,
      'd2',
      'tools/call',
      { ...args, requestState: first.json.result.requestState, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } },
      ELICIT,
    );
    expect(second.status).toBe(200);
    expect(second.json.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Deleted /notes/todo.txt.' }] });
  });

  test('three rounds alternating instances', async () => {
    const args = { name: 'plan_trip', arguments: {} };
    const r1 = (await rpc(a.url, 't1', 'tools/call', args, ELICIT)).json.result;
    const r2 = (
      await rpc(
        b.url,
        't2',
        'tools/call',
        { ...args, requestState: r1.requestState, inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Ada', people: 2 } } } },
        ELICIT,
      )
    ).json.result;
    const r3 = (
      await rpc(
        a.url,
        't3',
        'tools/call',
        { ...args, requestState: r2.requestState, inputResponses: { 'elicit-2': { action: 'accept', content: { city: 'Oslo', season: 'winter' } } } },
        ELICIT,
      )
    ).json.result;
    expect(r3.inputRequests['elicit-3'].params.message).toBe('Book Oslo in winter for 2 (Ada)?');
    const done = (
      await rpc(
        b.url,
        't4',
        'tools/call',
        { ...args, requestState: r3.requestState, inputResponses: { 'elicit-3': { action: 'accept', content: { book: false } } } },
        ELICIT,
      )
    ).json.result;
    expect(done.content[0].text).toMatch(/^Quote Q-\d+ kept for later\.$/);
  });

  test('a missing capability is 400 with -32021', async () => {
    const response = await rpc(a.url, 'c1', 'tools/call', { name: 'delete_file', arguments: { path: '/tmp/scratch' } });
    expect(response.status).toBe(400);
    expect(response.json.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: expect.any(Object) } } });
  });

  test('tampered state is refused with -32602 and the tool does not run', async () => {
    const args = { name: 'delete_file', arguments: { path: '/tmp/scratch' } };
    const first = (await rpc(a.url, 'x1', 'tools/call', args, ELICIT)).json.result;
    const state: string = first.requestState;
    const flipped = withCharacterReplaced(state, 10);
    const refused = await rpc(
      b.url,
      'x2',
      'tools/call',
      { ...args, requestState: flipped, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } },
      ELICIT,
    );
    expect(refused.json.error.code).toBe(-32602);
    const listed = await rpc(a.url, 'x3', 'tools/call', { name: 'list_files', arguments: {} });
    expect(listed.json.result.content[0].text).toContain('/tmp/scratch');
  });

  test('state sealed with another key is refused', async () => {
    const other = await startApp({ servers: [new FilesWizard()], mrtr: { keys: [Buffer.alloc(32, 9).toString('base64')] } });
    try {
      const args = { name: 'delete_file', arguments: { path: '/tmp/scratch' } };
      const first = (await rpc(other.url, 'k1', 'tools/call', args, ELICIT)).json.result;
      const refused = await rpc(
        a.url,
        'k2',
        'tools/call',
        { ...args, requestState: first.requestState, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } },
        ELICIT,
      );
      expect(refused.json.error.code).toBe(-32602);
    } finally {
      await other.close();
    }
  });
});
