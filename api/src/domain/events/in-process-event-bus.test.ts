import { describe, expect, it } from 'vitest';
import { InProcessEventBus } from './in-process-event-bus';

describe('InProcessEventBus', () => {
  it('delivers a payload to every subscriber of the topic, in subscription order', async () => {
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    bus.subscribe<{ n: number }>('t', (p) => seen.push(`first ${p.n}`));
    bus.subscribe<{ n: number }>('t', (p) => seen.push(`second ${p.n}`));
    await bus.publish('t', { n: 1 });
    expect(seen).toEqual(['first 1', 'second 1']);
  });

  it('delivers synchronously, before publish resolves', async () => {
    const bus = new InProcessEventBus();
    const seen: number[] = [];
    bus.subscribe<number>('t', (n) => seen.push(n));
    const published = bus.publish('t', 7);
    expect(seen).toEqual([7]);
    await published;
  });

  it('keeps topics apart and ignores topics nobody listens to', async () => {
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    bus.subscribe<string>('a', (p) => seen.push(`a:${p}`));
    await bus.publish('b', 'x');
    await bus.publish('a', 'y');
    expect(seen).toEqual(['a:y']);
  });

  it('stops delivering to a handler after it unsubscribes, leaving the others', async () => {
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    const off = bus.subscribe<string>('t', (p) => seen.push(`gone ${p}`));
    bus.subscribe<string>('t', (p) => seen.push(`kept ${p}`));
    await bus.publish('t', '1');
    off();
    off(); // idempotent
    await bus.publish('t', '2');
    expect(seen).toEqual(['gone 1', 'kept 1', 'kept 2']);
  });

  it('finishes the current delivery when a handler unsubscribes another during it', async () => {
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    let offSecond = () => {};
    bus.subscribe<string>('t', () => {
      seen.push('first');
      offSecond();
    });
    offSecond = bus.subscribe<string>('t', () => seen.push('second'));
    await bus.publish('t', 'x');
    await bus.publish('t', 'y');
    expect(seen).toEqual(['first', 'second', 'first']);
  });

  it('delivers nothing after close', async () => {
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    bus.subscribe<string>('t', (p) => seen.push(p));
    await bus.close();
    await bus.publish('t', 'late');
    expect(seen).toEqual([]);
  });
});
