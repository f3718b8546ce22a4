import { describe, expect, it } from 'vitest';
import { IdleSessions } from './idle-sessions';

describe('IdleSessions', () => {
  it('expires a session whose last request ended idleMs ago, and none with an open request', () => {
    let now = 0;
    const idle = new IdleSessions<string>(1_000, () => now);
    idle.add('a');
    idle.add('b');
    now = 500;
    const endA = idle.begin('a');
    endA();
    const endB = idle.begin('b'); // a GET stream listening for notifications: open for good
    now = 1_200;
    expect(idle.expired()).toEqual([]); // a ended at 500; b is open
    now = 1_500;
    expect(idle.expired()).toEqual(['a']);
    now = 100_000;
    expect(idle.expired()).toEqual(['a']);
    endB();
    expect(idle.expired()).toEqual(['a']); // b's request just ended
    now = 101_000;
    expect(idle.expired().sort()).toEqual(['a', 'b']);
  });

  it('counts a request once however often its end is called, and forgets removed sessions', () => {
    let now = 0;
    const idle = new IdleSessions<string>(10, () => now);
    idle.add('a');
    const first = idle.begin('a');
    const second = idle.begin('a');
    first();
    first();
    now = 50;
    expect(idle.expired()).toEqual([]); // the second request is still open
    second();
    now = 100;
    expect(idle.expired()).toEqual(['a']);
    idle.remove('a');
    expect(idle.expired()).toEqual([]);
    expect(() => idle.begin('unknown')()).not.toThrow();
  });
});
