import { pino } from 'pino';
import { forwardLogsToClient } from '../src/logging/mcp-log-forwarding.js';

describe('ctx.log forwarding to notifications/message', () => {
  test('forwards entries at or above the level, and leaves the shared child untouched', () => {
    const lines: string[] = [];
    const base = pino({ level: 'debug' }, { write: (line: string) => lines.push(line) });
    const shared = base.child({ req: 1 });
    const sent: Array<[string, unknown]> = [];
    const forwarding = forwardLogsToClient(shared, 'warning', (level, data) => sent.push([level, data]));
    forwarding.info('quiet');
    forwarding.warn({ disk: 'full' }, 'careful');
    forwarding.error('broken');
    expect(sent).toEqual([
      ['warning', { message: 'careful', disk: 'full' }],
      ['error', 'broken'],
    ]);
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[1])).toMatchObject({ req: 1, msg: 'careful', disk: 'full' });
    // Another request holding the same child object gets no forwarding.
    shared.error('other request');
    expect(sent).toHaveLength(2);
  });
});
