import 'reflect-metadata';
import { createServer, DecorumStartupError, InProcessNotificationBus, Tool, type LiveChange, type LiveEvent, type PublishOptions } from '@decorum/core';
import { pino } from 'pino';
import { quietLogger } from './support/engine-harness.js';
import { Ops, Reports } from '@decorum-internal/test-support/fixtures';

/**
 * Two buses linked in memory, as two instances on one Redis channel are: events go to the peer
 * unless `local`, changes go to the peer only (never back). What is tested is the live registry's
 * side of the contract; @decorum/redis tests the same through a real Redis.
 */
class LinkedBus extends InProcessNotificationBus {
  peer: LinkedBus | undefined;
  readonly sent: LiveChange[] = [];
  private readonly handlers: Array<(change: LiveChange) => void> = [];

  override publish(event: LiveEvent, options?: PublishOptions): void {
    super.publish(event);
    if (!options?.local) this.peer?.deliver(event);
  }

  replicate(change: LiveChange): void {
    this.sent.push(change);
    for (const handler of this.peer?.handlers ?? []) handler(change);
  }

  onReplicated(apply: (change: LiveChange) => void): void {
    this.handlers.push(apply);
  }

  private deliver(event: LiveEvent): void {
    super.publish(event);
  }
}

class NotInCatalogue {
  @Tool({ input: null })
  local_only() {
    return 'here';
  }
}

function pair(options: { logger?: typeof quietLogger } = {}) {
  const busA = new LinkedBus();
  const busB = new LinkedBus();
  busA.peer = busB;
  busB.peer = busA;
  const a = createServer([Ops], { logger: options.logger ?? quietLogger, notificationBus: busA, catalogue: [Reports] });
  const b = createServer([Ops], { logger: options.logger ?? quietLogger, notificationBus: busB, catalogue: [Reports] });
  const heard = (bus: LinkedBus) => {
    const events: LiveEvent[] = [];
    bus.subscribe({ wants: () => true, deliver: (e) => (events.push(e), true), onDrain: (l) => l() });
    return events;
  };
  const names = (server: typeof a) => [...server.registry.tools.keys()];
  return { a, b, busA, busB, onA: heard(busA), onB: heard(busB), names };
}

describe('live changes across instances (a replicating bus)', () => {
  test('enable, disable and remove on A apply on B, and each instance publishes its own list-changed once', () => {
    const { a, b, onA, onB, names } = pair();
    a.live.tools.disable('deploy');
    expect(names(b)).toEqual(['scale']);
    expect(onA).toEqual([{ type: 'tools/list_changed' }]);
    expect(onB).toEqual([{ type: 'tools/list_changed' }]);
    b.live.tools.enable('deploy');
    expect(names(a)).toEqual(['deploy', 'scale']);
    a.live.tools.remove('scale');
    expect(names(b)).toEqual(['deploy']);
    expect(b.live.tools.has('scale')).toBe(false);
    expect(onA).toHaveLength(3);
    expect(onB).toHaveLength(3);
  });

  test('a no-op change is not replicated', () => {
    const { a, busA } = pair();
    expect(a.live.tools.enable('deploy')).toBe(false);
    expect(busA.sent).toEqual([]);
  });

  test('a batch replicates as one change and publishes one event per kind on each instance', () => {
    const { a, b, busA, onB, names } = pair();
    a.live.batch(() => {
      a.live.tools.disable('deploy');
      a.live.tools.disable('scale');
    });
    expect(busA.sent).toEqual([
      {
        op: 'batch',
        changes: [
          { op: 'disable', kind: 'tools', name: 'deploy' },
          { op: 'disable', kind: 'tools', name: 'scale' },
        ],
      },
    ]);
    expect(names(b)).toEqual([]);
    expect(onB).toEqual([{ type: 'tools/list_changed' }]);
  });

  test('add of a catalogue class replicates by class name; add of anything else stays local', () => {
    const { a, b, busA, names } = pair();
    a.live.add(Reports);
    expect(busA.sent).toEqual([{ op: 'add', className: 'Reports' }]);
    expect(names(b)).toEqual(['deploy', 'scale', 'report']);
    a.live.add(NotInCatalogue);
    expect(names(a)).toContain('local_only');
    expect(names(b)).not.toContain('local_only');
    expect(busA.sent).toHaveLength(1);
  });

  test('resource updates reach the other instance; list-changed events are never delivered twice', () => {
    const { a, onA, onB } = pair();
    a.notifyResourceUpdated('notes://1');
    expect(onA).toEqual([{ type: 'resources/updated', uri: 'notes://1' }]);
    expect(onB).toEqual([{ type: 'resources/updated', uri: 'notes://1' }]);
  });

  test('a replicated change that cannot apply here is logged and skipped, and serving goes on', () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const { b, busB, names } = pair({ logger });
    b.live.add(Reports);
    // A replays an add of a class B already has, and one B does not know.
    for (const change of [
      { op: 'add', className: 'Reports' },
      { op: 'add', className: 'Unknown' },
    ] as LiveChange[])
      (busB as unknown as { handlers: Array<(c: LiveChange) => void> }).handlers.forEach((h) => h(change));
    expect(names(b)).toEqual(['deploy', 'scale', 'report']);
    expect(lines.join('')).toMatch(/replicated live change skipped: .*report/);
    expect(lines.join('')).toMatch(/live.add of Unknown skipped: it is not in this server's catalogue/);
  });

  test('two catalogue classes with one name are a start-up error', () => {
    const Twin = (() => {
      class Reports {
        @Tool({ input: null })
        other() {
          return 'other';
        }
      }
      return Reports;
    })();
    expect(() => createServer([Ops], { logger: quietLogger, catalogue: [Reports, Twin] })).toThrow(DecorumStartupError);
    expect(() => createServer([Ops], { logger: quietLogger, catalogue: [Reports, Twin] })).toThrow(/two classes are named Reports/);
  });
});
