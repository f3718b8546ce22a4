import { describe, expect, it } from 'vitest';
import { InProcessEventBus } from './in-process-event-bus';
import { processRoute, TopicHandlers } from './topic-handlers';

const event = (tenantId: string, processId: string) => ({ tenantId, processId });

describe('TopicHandlers', () => {
  it('hands an event to the handlers of its route key and to the unrouted ones only', () => {
    const handlers = new TopicHandlers<string>();
    handlers.add('all');
    handlers.add('p1', processRoute({ tenantId: 't', id: 'p1' }));
    handlers.add('p1 again', processRoute({ tenantId: 't', id: 'p1' }));
    handlers.add('p2', processRoute({ tenantId: 't', id: 'p2' }));
    handlers.add('other tenant p1', processRoute({ tenantId: 'u', id: 'p1' }));
    expect(handlers.for(event('t', 'p1')).sort()).toEqual(['all', 'p1', 'p1 again']);
    expect(handlers.for(event('u', 'p1')).sort()).toEqual(['all', 'other tenant p1']);
    // An event without a process reaches the unrouted handlers only.
    expect(handlers.for({ something: 'else' })).toEqual(['all']);
    expect(handlers.size).toBe(5);
  });

  it('forgets a removed handler, once, and a key without handlers', () => {
    const handlers = new TopicHandlers<string>();
    const remove = handlers.add('p1', processRoute({ tenantId: 't', id: 'p1' }));
    remove();
    remove();
    expect(handlers.size).toBe(0);
    expect(handlers.for(event('t', 'p1'))).toEqual([]);
    handlers.add('p1 later', processRoute({ tenantId: 't', id: 'p1' }));
    expect(handlers.for(event('t', 'p1'))).toEqual(['p1 later']);
  });
});

describe('InProcessEventBus with routes', () => {
  it('delivers a routed subscription its own process\'s events only, and the same function subscribed twice twice', async () => {
    const bus = new InProcessEventBus();
    const heard: string[] = [];
    const handler = (e: { processId: string }) => void heard.push(e.processId);
    bus.subscribe('topic', handler, { route: processRoute({ tenantId: 't', id: 'p1' }) });
    const second = bus.subscribe('topic', handler, { route: processRoute({ tenantId: 't', id: 'p1' }) });
    await bus.publish('topic', event('t', 'p2'));
    await bus.publish('topic', event('u', 'p1'));
    await bus.publish('topic', event('t', 'p1'));
    expect(heard).toEqual(['p1', 'p1']);
    second();
    bus.deliverLocal('topic', event('t', 'p1'));
    expect(heard).toEqual(['p1', 'p1', 'p1']);
  });
});
