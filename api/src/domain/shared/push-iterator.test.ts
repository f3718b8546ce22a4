import { describe, expect, it } from 'vitest';
import { filterAsyncIterator, isPushable, mapAsyncIterator, PushIterator } from './push-iterator';

describe('PushIterator', () => {
  it('hands pushed values to a waiting consumer and buffers the rest in order', async () => {
    const it = new PushIterator<number>();
    const first = it.next();
    it.push(1);
    it.push(2);
    it.push(3);
    expect(await first).toEqual({ value: 1, done: false });
    expect(await it.next()).toEqual({ value: 2, done: false });
    expect(await it.next()).toEqual({ value: 3, done: false });
  });

  // Bug: a second next() before any push replaced the first one's resolver, so the first never settled.
  it('settles two next() calls made before any push with the two values, in order', async () => {
    const it = new PushIterator<number>();
    const first = it.next();
    const second = it.next();
    it.push(1);
    it.push(2);
    expect(await Promise.all([first, second])).toEqual([{ value: 1, done: false }, { value: 2, done: false }]);
  });

  it('settles every pending next() with done when the consumer returns', async () => {
    const it = new PushIterator<number>();
    const pending = [it.next(), it.next()];
    await it.return();
    expect(await Promise.all(pending)).toEqual([{ value: undefined, done: true }, { value: undefined, done: true }]);
  });

  it('drops the oldest values past its bound, so a slow consumer cannot grow memory', async () => {
    const it = new PushIterator<number>(2);
    for (const n of [1, 2, 3, 4]) it.push(n);
    expect((await it.next()).value).toBe(3);
    expect((await it.next()).value).toBe(4);
  });

  it('keeps dropping the oldest once the consumer is pulling, and never makes the producer wait', async () => {
    const it = new PushIterator<number>(2);
    const first = it.next();
    for (const n of [1, 2, 3, 4]) it.push(n); // 1 goes to the waiting next(); 2 is dropped
    expect(await first).toEqual({ value: 1, done: false });
    expect(await Promise.all([it.next(), it.next()])).toEqual([{ value: 3, done: false }, { value: 4, done: false }]);
  });

  it('closes on throw() and rejects with the error, even with a next() pending', async () => {
    const it = new PushIterator<number>();
    let closed = 0;
    it.onClose(() => closed++);
    const pending = it.next();
    await expect(it.throw(new Error('client gone'))).rejects.toThrow('client gone');
    expect(await pending).toEqual({ value: undefined, done: true });
    expect(closed).toBe(1);
  });

  it('runs its close hooks when returned before the first next()', async () => {
    const it = new PushIterator<number>();
    let closed = 0;
    it.onClose(() => closed++);
    it.push(1);
    await it.return();
    expect(closed).toBe(1);
    expect(await it.next()).toEqual({ value: undefined, done: true });
  });

  it('runs its close hooks once on return, ends a pending next, and ignores later pushes', async () => {
    const it = new PushIterator<number>();
    let closed = 0;
    it.onClose(() => closed++);
    const pending = it.next();
    await it.return();
    await it.return();
    expect(await pending).toEqual({ value: undefined, done: true });
    it.push(9);
    expect(await it.next()).toEqual({ value: undefined, done: true });
    expect(closed).toBe(1);
    it.onClose(() => closed++); // a hook added after closing runs at once
    expect(closed).toBe(2);
  });

  it('maps values and closes the source when the mapped iterator closes', async () => {
    const source = new PushIterator<number>();
    let closed = false;
    source.onClose(() => (closed = true));
    const mapped = mapAsyncIterator(source, (n) => n * 10);
    source.push(4);
    expect(await mapped.next()).toEqual({ value: 40, done: false });
    await mapped.return!();
    expect(closed).toBe(true);
  });

  it('pushTo hands the buffered values, then each push, to the sink through map and filter; next() only reports the end', async () => {
    const source = new PushIterator<number>();
    source.push(1);
    source.push(2);
    const derived = filterAsyncIterator(mapAsyncIterator(source, (n) => n * 10), (n) => n !== 20);
    if (!isPushable(derived)) throw new Error('a map and filter of a PushIterator take a sink');
    const seen: number[] = [];
    derived.pushTo((n) => seen.push(n));
    const end = derived.next();
    source.push(3);
    expect(seen).toEqual([10, 30]);
    await derived.return!();
    expect(await end).toEqual({ value: undefined, done: true });
    source.push(4);
    expect(seen).toEqual([10, 30]);
  });
});
