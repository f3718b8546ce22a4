import { describe, expect, it } from 'vitest';
import { TurnSlots } from './turn-slots';

const settled = async <T>(p: Promise<T>): Promise<boolean> => {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('TurnSlots', () => {
  it('runs at most `total` turns; the next waits until one ends', async () => {
    const slots = new TurnSlots(2, 2);
    const a = await slots.acquire('t1');
    await slots.acquire('t2');
    const third = slots.acquire('t3');
    expect(await settled(third)).toBe(false);
    a();
    expect(await settled(third)).toBe(true);
    expect(slots.usage.running).toBe(2);
  });

  it('lets no tenant take more than its share; another tenant passes its waiting turns', async () => {
    const slots = new TurnSlots(4, 2);
    const first = await slots.acquire('busy');
    await slots.acquire('busy');
    const busyThird = slots.acquire('busy');
    const other = slots.acquire('quiet');
    expect(await settled(busyThird)).toBe(false); // at its share, although slots are free
    expect(await settled(other)).toBe(true); // queued after it, served before it
    expect(slots.usage).toMatchObject({ running: 3, waiting: 1 });
    first();
    expect(await settled(busyThird)).toBe(true);
    expect(slots.usage.byTenant.get('busy')).toBe(2);
  });

  it('serves waiters in order when they fit, and a release counts once', async () => {
    const slots = new TurnSlots(1, 1);
    const release = await slots.acquire('a');
    const order: string[] = [];
    const b = slots.acquire('b').then((r) => (order.push('b'), r));
    const c = slots.acquire('c').then((r) => (order.push('c'), r));
    release();
    release(); // twice: still one slot freed
    (await b)();
    (await c)();
    expect(order).toEqual(['b', 'c']);
    expect(slots.usage).toMatchObject({ running: 0, waiting: 0 });
  });

  it('refuses a configuration without slots', () => {
    expect(() => new TurnSlots(0, 1)).toThrow(RangeError);
    expect(() => new TurnSlots(1, 0)).toThrow(RangeError);
  });
});
