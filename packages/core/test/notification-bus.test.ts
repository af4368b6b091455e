import { InProcessNotificationBus, type LiveEvent, type SubscriberSink } from '@decorum/core';

const TOOLS: LiveEvent = { type: 'tools/list_changed' };

function sink(overrides: Partial<SubscriberSink> = {}) {
  const delivered: LiveEvent[] = [];
  const drains: Array<() => void> = [];
  const base: SubscriberSink = {
    wants: () => true,
    deliver: (e) => {
      delivered.push(e);
      return true;
    },
    onDrain: (l) => drains.push(l),
    ...overrides,
  };
  return { sink: base, delivered, drains };
}

describe('InProcessNotificationBus', () => {
  test('fans out to every subscriber that wants the event', () => {
    const bus = new InProcessNotificationBus();
    const a = sink();
    const b = sink({ wants: (e) => e.type === 'resources/updated' });
    bus.subscribe(a.sink);
    bus.subscribe(b.sink);
    bus.publish(TOOLS);
    bus.publish({ type: 'resources/updated', uri: 'x://1' });
    expect(a.delivered).toHaveLength(2);
    expect(b.delivered).toEqual([{ type: 'resources/updated', uri: 'x://1' }]);
    expect(bus.size).toBe(2);
  });

  test('a subscriber under backpressure queues, then resumes on drain', () => {
    const bus = new InProcessNotificationBus();
    let full = true;
    const delivered: LiveEvent[] = [];
    const drains: Array<() => void> = [];
    const sub = bus.subscribe({ wants: () => true, deliver: (e) => (delivered.push(e), !full), onDrain: (l) => drains.push(l) }, { queueLimit: 10 });
    for (let i = 0; i < 5; i++) bus.publish(TOOLS);
    // The first write was accepted by the transport but said "full": the rest wait.
    expect(delivered).toHaveLength(1);
    expect(sub.queued).toBe(4);
    full = false;
    drains.shift()!();
    expect(delivered).toHaveLength(5);
    expect(sub.queued).toBe(0);
  });

  test('a subscriber that never drains is cut off at its queue limit instead of growing', async () => {
    const bus = new InProcessNotificationBus({ queueLimit: 1000 });
    let deliveries = 0;
    const stuck = bus.subscribe({ wants: () => true, deliver: () => (deliveries++, false), onDrain: () => {} });
    const healthy = sink();
    bus.subscribe(healthy.sink);
    for (let i = 0; i < 5000; i++) bus.publish({ type: 'resources/updated', uri: `x://${i}` });
    const end = await stuck.ended;
    expect(end.reason).toBe('overflow');
    expect(end.reason === 'overflow' && end.error.message).toMatch(/cut off/);
    expect(deliveries).toBe(1);
    expect(stuck.queued).toBe(0);
    // The healthy subscriber got everything; the stuck one is gone from the bus.
    expect(healthy.delivered).toHaveLength(5000);
    expect(bus.size).toBe(1);
  });

  test('close and shutdown end subscriptions with their reasons', async () => {
    const bus = new InProcessNotificationBus();
    const a = bus.subscribe(sink().sink);
    const b = bus.subscribe(sink().sink);
    a.close();
    expect(await a.ended).toEqual({ reason: 'closed' });
    bus.shutdown();
    expect(await b.ended).toEqual({ reason: 'shutdown' });
    expect(await bus.subscribe(sink().sink).ended).toEqual({ reason: 'shutdown' });
    expect(bus.size).toBe(0);
  });
});
