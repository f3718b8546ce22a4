import { describe, expect, it } from 'vitest';
import type { AvailableSkill } from '../../skills/skill-resolver';
import { evaluateTriggersNaive } from './naive-matcher';
import { available, NO_FILTER } from './testing';
import { TriggerIndex } from './trigger-index';
import { newestFirst, type ScanMessages } from './trigger-match';

/** Issue 8 / seed 003: the lorebook trigger controls, through the index and the reference matcher alike. */
function both(skills: readonly AvailableSkill[], scan: ScanMessages | string) {
  const indexed = new TriggerIndex(skills).evaluate(scan, NO_FILTER);
  expect(indexed).toEqual(evaluateTriggersNaive(skills, scan, NO_FILTER));
  return indexed;
}

const on = (skills: readonly AvailableSkill[], scan: ScanMessages | string) => both(skills, scan).matches.map((m) => m.skill);

describe('selectiveLogic', () => {
  const skill = (logic: string) => available('lore', { frontmatter: ['when: mentioned', 'triggers: [sword]', 'secondaryTriggers: [moon, night]', `selectiveLogic: ${logic}`] });

  it('AND ANY: the primary and at least one secondary', () => {
    expect(on([skill('AND ANY')], 'a sword under the moon')).toEqual(['lore']);
    expect(both([skill('AND ANY')], 'a sword').misses).toMatchObject([{ skill: 'lore', reason: 'Secondary triggers not met (AND ANY: moon, night).' }]);
  });

  it('AND ALL: the primary and every secondary; the reason names the missing ones', () => {
    expect(on([skill('AND ALL')], 'sword, moon and night')).toEqual(['lore']);
    expect(both([skill('AND ALL')], 'sword at night').misses).toMatchObject([{ terms: ['moon'], reason: 'Secondary triggers not met (AND ALL: moon).' }]);
  });

  it('NOT ANY: the primary and no secondary; the reason names the ones found', () => {
    expect(on([skill('NOT ANY')], 'a sword')).toEqual(['lore']);
    expect(both([skill('NOT ANY')], 'sword and moon').misses).toMatchObject([{ reason: 'Excluded by secondary triggers (NOT ANY: moon).' }]);
  });

  it('NOT ALL: the primary and not every secondary', () => {
    expect(on([skill('NOT ALL')], 'sword and moon')).toEqual(['lore']);
    expect(both([skill('NOT ALL')], 'sword, moon, night').misses).toMatchObject([{ reason: 'Excluded by secondary triggers (NOT ALL: moon, night).' }]);
  });

  it('never reports a skill whose primary triggers did not match, and reports the secondaries met', () => {
    expect(both([skill('NOT ANY')], 'moon and night')).toEqual({ matches: [], misses: [] });
    expect(both([skill('AND ANY')], 'sword at night').matches[0]).toMatchObject({ evidence: ['sword'], secondary: ['night'], reason: 'Mentioned: sword.' });
  });

  it('runs secondary regexes', () => {
    const regex = available('r', { frontmatter: ['triggers: [sword]', 'secondaryTriggers: ["/dark(ness)?/"]', 'selectiveLogic: AND ALL'] });
    expect(both([regex], 'sword in the darkness').matches[0]).toMatchObject({ secondary: ['/dark(ness)?/'] });
    expect(both([regex], 'sword in the light').misses[0]!.reason).toBe('Secondary triggers not met (AND ALL: /dark(ness)?/).');
  });
});

describe('scanDepth', () => {
  const depth = (n: number) => available(`d${n}`, { frontmatter: ['triggers: [sword]', `scanDepth: ${n}`] });
  const skills = [depth(0), depth(1), depth(2), depth(3)];

  it('scans the newest N messages, the one being answered included (scan windows are newest first)', () => {
    const history = ['the sword', 'a shield', 'a helmet'];
    const scan = newestFirst(history);
    expect(scan).toEqual(['a helmet', 'a shield', 'the sword']);
    expect(on(skills, scan)).toEqual(['d3']);
    expect(on(skills, newestFirst(['a shield', 'the sword', 'a helmet']))).toEqual(['d2', 'd3']);
    expect(on(skills, ['sword'])).toEqual(['d1', 'd2', 'd3']);
  });

  it('counts keywords across messages within the depth, never a phrase across two messages', () => {
    const kw = available('kw', { frontmatter: ['triggers:', '  - type: KEYWORDS', '    keywords: [review, diff, pull request]', 'scanDepth: 2'] });
    expect(on([kw], ['the diff', 'please review'])).toEqual(['kw']);
    expect(both([kw], ['the diff', 'please review']).matches[0]!.evidence).toEqual(['review', 'diff']);
    expect(on([kw], ['request', 'pull'])).toEqual([]);
    expect(on([kw], ['the diff', 'nothing', 'please review'])).toEqual([]);
  });

  it('checks secondaries within the same depth', () => {
    const s = available('s', { frontmatter: ['triggers: [sword]', 'secondaryTriggers: [moon]', 'scanDepth: 2'] });
    expect(on([s], ['sword', 'moon'])).toEqual(['s']);
    expect(on([s], ['sword', 'x', 'moon'])).toEqual([]);
  });

  it('treats a single string as a scan of one message (depth 1, today\'s behaviour)', () => {
    expect(on(skills, 'the sword')).toEqual(['d1', 'd2', 'd3']);
  });
});

describe('caseSensitive and matchWholeWords', () => {
  it('matches whole words case-insensitively by default (DESIGN §10)', () => {
    const s = available('s', { frontmatter: ['triggers: [sword]'] });
    expect(on([s], 'SWORD!')).toEqual(['s']);
    expect(on([s], 'swordfish')).toEqual([]);
  });

  it('caseSensitive: keywords and regexes match only as written; /…/i stays insensitive', () => {
    const s = available('s', { frontmatter: ['triggers: [Sword, "/Moon/", "/night/i"]', 'caseSensitive: true'] });
    expect(on([s], 'the Sword')).toEqual(['s']);
    expect(on([s], 'the sword')).toEqual([]);
    expect(both([s], 'the Moon').matches[0]!.evidence).toEqual(['Moon']);
    expect(on([s], 'the moon')).toEqual([]);
    expect(on([s], 'NIGHT')).toEqual(['s']);
  });

  it('matchWholeWords: false matches inside words, lower-cased unless caseSensitive', () => {
    const sub = available('sub', { frontmatter: ['triggers: [sword]', 'matchWholeWords: false'] });
    expect(on([sub], 'SWORDFISH')).toEqual(['sub']);
    const cased = available('cased', { frontmatter: ['triggers: [Änd]', 'matchWholeWords: false', 'caseSensitive: true'] });
    expect(on([cased], 'Änderung')).toEqual(['cased']);
    expect(on([cased], 'änderung')).toEqual([]);
  });
});

describe('which skills are matched', () => {
  it('leaves out always skills, scan depth 0 and picked skills without closeWhenUnmentioned; match() leaves out picked ones', () => {
    const skills = [
      available('always', { frontmatter: ['when: always', 'triggers: [sword]'] }),
      available('zero', { frontmatter: ['triggers: [sword]', 'scanDepth: 0'] }),
      available('picked', { frontmatter: ['when: picked', 'triggers: [sword]'] }),
      available('closing', { frontmatter: ['when: picked', 'triggers: [sword]', 'closeWhenUnmentioned: true'] }),
      available('mentioned', { frontmatter: ['when: mentioned', 'triggers: [sword]'] }),
    ];
    expect(on(skills, 'sword')).toEqual(['closing', 'mentioned']);
    expect(new TriggerIndex(skills).match('sword', NO_FILTER).map((m) => m.skill)).toEqual(['mentioned']);
  });
});
