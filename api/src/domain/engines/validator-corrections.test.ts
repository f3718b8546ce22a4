import { describe, expect, it } from 'vitest';
import { correctionFor, DEFAULT_DATA_RELAY_CORRECTION, formatSafe, NO_TOOL_CALL_CORRECTION } from './validator-corrections';

describe('formatSafe', () => {
  it('formats two %d like Java, with %% and %n', () => {
    expect(formatSafe('data %d, reply %d (100%%)%n', 600, 5)).toBe('data 600, reply 5 (100%)\n');
  });
  it('returns the template literally on a format error instead of failing', () => {
    expect(formatSafe('only %s here %d', 1, 2)).toBe('only %s here %d');
    expect(formatSafe('three %d %d %d', 1, 2)).toBe('three %d %d %d');
    expect(formatSafe('dangling %', 1, 2)).toBe('dangling %');
    expect(formatSafe('none', 1, 2)).toBe('none');
  });
});

describe('correctionFor', () => {
  it('no-tool-call when the turn called no tool, once', () => {
    expect(correctionFor({ anyToolCall: false, toolDataChars: 0, replyChars: 10 }, new Set(), null)).toEqual({ kind: 'no-tool-call', text: NO_TOOL_CALL_CORRECTION });
    expect(correctionFor({ anyToolCall: false, toolDataChars: 0, replyChars: 10 }, new Set(['no-tool-call']), null)).toBeNull();
    expect(NO_TOOL_CALL_CORRECTION).toContain('call respond');
    // Without respond on offer, the correction does not send the model to a tool it does not have.
    expect(correctionFor({ anyToolCall: false, toolDataChars: 0, replyChars: 10, respondOffered: false }, new Set(), null)!.text).not.toContain('respond');
  });
  it('data-relay-gap at ≥ 500 tool characters and ≤ 200 reply characters, with the recipe wording or the default', () => {
    expect(correctionFor({ anyToolCall: true, toolDataChars: 500, replyChars: 200 }, new Set(), 'got %d, said %d')).toEqual({ kind: 'data-relay-gap', text: 'got 500, said 200' });
    expect(correctionFor({ anyToolCall: true, toolDataChars: 700, replyChars: 3 }, new Set(), ' ')!.text).toBe(formatSafe(DEFAULT_DATA_RELAY_CORRECTION, 700, 3));
    expect(correctionFor({ anyToolCall: true, toolDataChars: 499, replyChars: 3 }, new Set(), null)).toBeNull();
    expect(correctionFor({ anyToolCall: true, toolDataChars: 900, replyChars: 201 }, new Set(), null)).toBeNull();
    expect(correctionFor({ anyToolCall: true, toolDataChars: 900, replyChars: 3 }, new Set(['data-relay-gap']), null)).toBeNull();
  });
});
