import { describe, expect, it } from 'vitest';
import { MessagePacer, type PausableSocket } from './ws-message-pacer';

class FakeSocket implements PausableSocket {
  isPaused = false;
  pauses = 0;
  pause(): void {
    this.isPaused = true;
    this.pauses++;
  }
  resume(): void {
    this.isPaused = false;
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

// Issue 13: ws emits a whole chunk's frames in one task; 5,000 subscribe frames held the loop 270 ms.
describe('MessagePacer', () => {
  it('hands over at most perTurn messages per event-loop turn, in order, and lets other work run between', async () => {
    const socket = new FakeSocket();
    const delivered: string[] = [];
    let otherWork = 0;
    const pacer = new MessagePacer(socket, (m) => delivered.push(m), 16, 1_000);
    for (let i = 0; i < 100; i++) pacer.push(`m${i}`);
    // The first batch goes at once, the rest waits for later turns.
    expect(delivered).toHaveLength(16);
    const perTurn: number[] = [];
    while (delivered.length < 100) {
      const before = delivered.length;
      otherWork++;
      await nextTurn();
      perTurn.push(delivered.length - before);
    }
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(16);
    expect(otherWork).toBeGreaterThanOrEqual(6);
    expect(delivered).toEqual(Array.from({ length: 100 }, (_, i) => `m${i}`));
  });

  it('delivers a lone message at once', () => {
    const delivered: string[] = [];
    const pacer = new MessagePacer(new FakeSocket(), (m) => delivered.push(m), 16, 256);
    pacer.push('only');
    expect(delivered).toEqual(['only']);
  });

  it('pauses the socket while pauseAt messages wait and resumes it once half have gone', async () => {
    const socket = new FakeSocket();
    const pacer = new MessagePacer(socket, () => {}, 10, 50);
    for (let i = 0; i < 120; i++) pacer.push(`m${i}`);
    expect(socket.isPaused).toBe(true);
    while (pacer.waiting >= 25) {
      expect(socket.isPaused).toBe(true);
      await nextTurn();
    }
    expect(socket.isPaused).toBe(false);
    while (pacer.waiting > 0) await nextTurn();
    expect(socket.pauses).toBe(1);
  });

  it('drops what waits once stopped (the socket closed or was cut off)', async () => {
    const delivered: string[] = [];
    const pacer = new MessagePacer(new FakeSocket(), (m) => delivered.push(m), 4, 1_000);
    for (let i = 0; i < 40; i++) pacer.push(`m${i}`);
    pacer.stop();
    pacer.push('late');
    for (let i = 0; i < 5; i++) await nextTurn();
    expect(delivered).toHaveLength(4);
    expect(pacer.waiting).toBe(0);
  });

  it('stops handing over within the batch when a delivery stops it', () => {
    const delivered: string[] = [];
    let pacer: MessagePacer | null = null;
    pacer = new MessagePacer(new FakeSocket(), (m) => {
      delivered.push(m);
      if (delivered.length === 3) pacer!.stop();
    }, 16, 1_000);
    for (let i = 0; i < 10; i++) pacer.push(`m${i}`);
    expect(delivered).toHaveLength(3);
  });
});
