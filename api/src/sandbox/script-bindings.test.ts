import { describe, expect, it } from 'vitest';
import { externalWait } from '../domain/scripting/script-runner';
import { HostCalls, splitBindings } from './script-bindings';

describe('splitBindings', () => {
  it('separates values from functions and keeps every object on a function path', () => {
    const fn = () => 1;
    const split = splitBindings({ params: { a: [1, { b: 2 }] }, guard: { task: 't', continueWith: fn }, tools: { deep: { run: fn } }, skip: undefined });
    expect(split.values).toEqual({ params: { a: [1, { b: 2 }] }, guard: { task: 't' }, tools: { deep: {} } });
    expect(split.functions).toEqual([{ index: 0, path: ['guard', 'continueWith'] }, { index: 1, path: ['tools', 'deep', 'run'] }]);
  });

  it('keeps a binding named __proto__ as an own key, not a prototype', () => {
    const split = splitBindings(JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(Object.getPrototypeOf(split.values)).toBe(Object.prototype);
    expect(JSON.stringify(split.values)).toBe('{"__proto__":{"polluted":true}}');
  });
});

describe('HostCalls.dispatch', () => {
  const calls = (fn: () => unknown) => new HostCalls(splitBindings({ f: fn as never }), { maxHostArgChars: 50, maxDepth: 3, maxHostCalls: 1_000_000 });

  it('answers with tagged JSON and never rejects', async () => {
    expect(await calls(() => ({ a: 1 })).dispatch(0, '[]')).toBe('v{"a":1}');
    expect(await calls(() => undefined).dispatch(0, '[]')).toBe('u');
    const failing = calls(() => { throw new Error('nope'); });
    expect(await failing.dispatch(0, '[]')).toBe('enope');
    expect(failing.lastFailure).toEqual({ kind: 'HOST', label: 'vance.f', message: 'nope' });
    expect(await calls(() => 1).dispatch(7, '[]')).toBe('eunknown host function');
  });

  it('refuses arguments over the size or depth cap without calling the function', async () => {
    let called = 0;
    const c = calls(() => { called++; return 1; });
    expect(await c.dispatch(0, JSON.stringify(['x'.repeat(100)]))).toMatch(/^ovance\.f: the arguments: \d+ characters of JSON, over the limit of 50$/);
    expect(await c.dispatch(0, '[[[[1]]]]')).toBe('ovance.f: the arguments: nested deeper than the limit of 3 levels');
    expect(c.lastFailure?.kind).toBe('OUTPUT');
    expect(called).toBe(0);
  });

  it('reports a host result that is circular or too large as a host failure', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(await calls(() => circular).dispatch(0, '[]')).toMatch(/^evance\.f returned a value that is not JSON/);
    expect(await calls(() => 'y'.repeat(100)).dispatch(0, '[]')).toMatch(/^evance\.f: the result: \d+ characters/);
  });
});

// Issue 13: counting only the guest's CPU time and each binding's own time let a `vance.log` loop run
// 34 s against 5 s while its calls waited for a busy event loop. The budget is the run's wall-clock
// time outside external waits: the time between calls counts as much as the time in them.
describe('HostCalls compute budget', () => {
  const clock = { now: 0 };
  const meter = (limitMs: number, onExceeded: () => void) => ({ limitMs, elapsedMs: () => clock.now, exceeded: onExceeded });
  const externalSleep = externalWait(async () => {
    clock.now += 500; // an external wait of 500 ms
    return null;
  });

  it('stops the run at the first call after the budget has passed, however cheap the calls were', async () => {
    clock.now = 0;
    let stopped = 0;
    const calls = new HostCalls(splitBindings({ log: () => null }), { maxHostArgChars: 50, maxDepth: 3, maxHostCalls: 1_000_000 });
    calls.meterWith(meter(300, () => stopped++));
    clock.now = 299; // 299 ms of waits for the event loop between calls, each call itself ~0 ms
    await calls.dispatch(0, '[]');
    expect(stopped).toBe(0);
    clock.now = 301;
    await calls.dispatch(0, '[]');
    await calls.dispatch(0, '[]');
    expect(stopped).toBe(1);
  });

  it('does not count the time inside external waits', async () => {
    clock.now = 0;
    let stopped = 0;
    const calls = new HostCalls(splitBindings({ tool: externalSleep, log: () => null }), { maxHostArgChars: 50, maxDepth: 3, maxHostCalls: 1_000_000 });
    calls.meterWith(meter(300, () => stopped++));
    for (let i = 0; i < 4; i++) await calls.dispatch(0, '[]'); // 2,000 ms waited
    clock.now += 100;
    await calls.dispatch(1, '[]');
    expect(calls.computedMs).toBe(100);
    expect(stopped).toBe(0);
  });
});
