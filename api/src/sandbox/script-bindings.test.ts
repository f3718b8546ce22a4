import { describe, expect, it } from 'vitest';
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
  const calls = (fn: () => unknown) => new HostCalls(splitBindings({ f: fn as never }), { maxHostArgChars: 50, maxDepth: 3 });

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
