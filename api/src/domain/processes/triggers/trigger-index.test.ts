import { describe, expect, it } from 'vitest';
import type { AvailableSkill } from '../../skills/skill-resolver';
import { matchTriggersNaive } from './naive-matcher';
import { available, keywords, NO_FILTER, pattern, triggers } from './testing';
import { TriggerIndex } from './trigger-index';
import { PATTERN_INPUT_CAP, type TriggerFilter, type TriggerMatch } from './trigger-match';

/** The index's answer, after checking that the reference matcher gives the same. */
function match(skills: readonly AvailableSkill[], message: string, filter: TriggerFilter = NO_FILTER): TriggerMatch[] {
  const indexed = new TriggerIndex(skills).match(message, filter);
  expect(indexed).toEqual(matchTriggersNaive(skills, message, filter));
  return indexed;
}

const names = (matches: readonly TriggerMatch[]) => matches.map((m) => m.skill);
const withKeywords = (name: string, list: string[], minMatch?: number) => available(name, { frontmatter: triggers(keywords(list, minMatch)) });

describe('KEYWORDS triggers (DESIGN §10)', () => {
  const review = withKeywords('code-review', ['review', 'diff']);

  it('fires on whole tokens regardless of case and punctuation, and says which keywords it saw', () => {
    const [m] = match([review], 'Could you REVIEW this diff?');
    expect(m).toMatchObject({ skill: 'code-review', triggerIndex: 0, evidence: ['review', 'diff'], reason: 'Mentioned: review, diff.' });
    expect(names(match([review], 'review:diff'))).toEqual(['code-review']);
  });

  it('fires when at least half of the distinct keywords occur: ceil(n / 2)', () => {
    expect(names(match([review], 'please review'))).toEqual(['code-review']);
    const three = withKeywords('three', ['alpha', 'beta', 'gamma']);
    expect(names(match([three], 'alpha only'))).toEqual([]);
    expect(match([three], 'gamma and alpha')[0]?.reason).toBe('Mentioned: alpha, gamma.');
  });

  it('never matches inside a longer word: keyword `view` does not fire on `review`', () => {
    const view = withKeywords('view', ['view']);
    expect(names(match([view], 'please review the preview'))).toEqual([]);
    expect(names(match([view], 'view it'))).toEqual(['view']);
  });

  it('matches a multi-word keyword as a phrase of whole tokens', () => {
    const pr = withKeywords('pr', ['pull request', 'merge'], 1);
    expect(match([pr], 'Open a Pull-Request please')[0]?.reason).toBe('Mentioned: pull request.');
    expect(names(match([pr], 'pull the request'))).toEqual([]);
    expect(names(match([pr], 'request pull'))).toEqual([]);
    expect(names(match([pr], 'pull pull request'))).toEqual(['pr']);
    // Short tokens are dropped on both sides before adjacency is read.
    expect(names(match([pr], 'pull a request'))).toEqual(['pr']);
  });

  it('keeps `abwägen` one token and matches it only whole', () => {
    const decide = withKeywords('decide', ['abwägen']);
    expect(names(match([decide], 'Bitte Vor- und Nachteile ABWÄGEN.'))).toEqual(['decide']);
    expect(names(match([decide], 'abwa\u0308gen'))).toEqual(['decide']);
    expect(names(match([decide], 'abw gen'))).toEqual([]);
  });

  it('drops tokens shorter than two characters: a one-letter keyword never occurs but counts in n', () => {
    const lang = withKeywords('lang', ['c', 'r', 'rust']);
    expect(names(match([lang], 'c r rust'))).toEqual([]);
    const rust = withKeywords('rust', ['c', 'rust']);
    expect(match([rust], 'c and rust')[0]?.reason).toBe('Mentioned: rust.');
  });

  it('counts a keyword listed twice once, also in another spelling', () => {
    const pr = withKeywords('pr', ['pull request', 'pull-request', 'merge', 'rebase']);
    // n = 3 distinct → threshold 2; one phrase found twice is still one keyword.
    expect(names(match([pr], 'pull request'))).toEqual([]);
    expect(match([pr], 'pull request, then rebase')[0]?.reason).toBe('Mentioned: pull request, rebase.');
  });

  it('honours minMatch as an override, capped at the number of distinct keywords', () => {
    const any = withKeywords('any', ['alpha', 'beta', 'gamma', 'delta'], 1);
    expect(names(match([any], 'delta'))).toEqual(['any']);
    const all = withKeywords('all', ['alpha', 'beta'], 5);
    expect(names(match([all], 'alpha'))).toEqual([]);
    expect(names(match([all], 'beta alpha'))).toEqual(['all']);
  });

  it('counts a keyword once however often it occurs', () => {
    const two = withKeywords('two', ['alpha', 'beta', 'gamma'], 2);
    expect(names(match([two], 'alpha alpha alpha'))).toEqual([]);
  });
});

describe('PATTERN triggers (seed 000 §4a)', () => {
  it('searches the lower-cased input case-insensitively, with a Java-style (?i) pattern', () => {
    const skill = available('review-de', { frontmatter: triggers(pattern('(?i)schau.*(diff|PR|änderung)')) });
    const [m] = match([skill], 'Schau dir bitte die ÄNDERUNG an');
    expect(m).toMatchObject({ skill: 'review-de', triggerIndex: 0, evidence: ['schau dir bitte die änderung'], reason: 'Matched /(?i)schau.*(diff|PR|änderung)/.' });
    expect(names(match([skill], 'look at the diff'))).toEqual([]);
  });

  it('runs patterns without an extractable literal on every message', () => {
    const hash = available('commit', { frontmatter: triggers(pattern('^[0-9a-f]{40}$')) });
    expect(new TriggerIndex([hash]).stats.unfilteredPatterns).toBe(1);
    expect(names(match([hash], 'ABCDEF0123456789abcdef0123456789ABCDEF01'))).toEqual(['commit']);
  });

  it('finds a literal spelled with the long s (ſ folds onto s)', () => {
    const skill = available('cls', { frontmatter: triggers(pattern('class')) });
    expect(names(match([skill], 'claſſ'))).toEqual(['cls']);
  });

  it(`searches only the first ${PATTERN_INPUT_CAP} characters of a message`, () => {
    const skill = available('tail', { frontmatter: triggers(pattern('needle')) });
    const padding = 'x'.repeat(PATTERN_INPUT_CAP);
    expect(names(match([skill], `${padding.slice(6)}needle`))).toEqual(['tail']);
    expect(names(match([skill], `${padding}needle`))).toEqual([]);
  });
});

describe('PATTERN triggers that cannot run away (issue 13)', () => {
  // The measured attacks: on V8's backtracking engine `(a{1,5})+b` took 4 min 38 s at 34 characters,
  // `(日+)+x` 3 s at 24, `please.*deploy.*prod` 3 s per 10,000 characters, `.*a.*x` 18.7 s at 3,000.
  // No timing is asserted: at 10,000 characters the old engine would not finish within any test
  // timeout, so completing with the right answer is the proof that matching is linear.
  const n = PATTERN_INPUT_CAP;
  const cases = [
    { source: '(a{1,5})+b', miss: 'a'.repeat(n), hit: `${'a'.repeat(n - 1)}b` },
    { source: '(日+)+x', miss: '日'.repeat(n), hit: `${'日'.repeat(n - 1)}x` },
    { source: 'please.*deploy.*prod', miss: 'please deploy '.repeat(n / 14 + 1).slice(0, n), hit: `${'please deploy '.repeat(n / 14).slice(0, n - 4)}prod` },
    { source: '.*a.*x', miss: 'a'.repeat(n), hit: `${'a'.repeat(n - 1)}x` },
  ];

  it.each(cases)('answers $source on 10,000-character adversarial messages, as a primary trigger', ({ source, miss, hit }) => {
    const skill = available('attacked', { frontmatter: triggers(pattern(source)) });
    expect(miss).toHaveLength(n);
    expect(match([skill], miss)).toEqual([]);
    const [m] = match([skill], hit);
    expect(m).toMatchObject({ skill: 'attacked', reason: `Matched /${source}/.` });
    expect(m!.evidence[0]!.length).toBeGreaterThan(n / 2);
  });

  it.each(cases)('answers $source as a case-sensitive secondary trigger over a deep scan window', ({ source, miss, hit }) => {
    const skill = available('attacked', { frontmatter: [...triggers(keywords(['go'])), 'secondaryTriggers:', `  - '/${source}/'`, 'selectiveLogic: AND ANY', 'caseSensitive: true', 'scanDepth: 3'] });
    const index = new TriggerIndex([skill]);
    const misses = index.evaluate(['go', miss, miss.toUpperCase()], NO_FILTER);
    expect(misses.matches).toEqual([]);
    expect(misses.misses).toHaveLength(1);
    expect(names(index.match(['go', miss, hit], NO_FILTER))).toEqual(['attacked']);
  });
});

describe('TriggerIndex matches', () => {
  it('returns one match per skill — its first firing trigger in declaration order — in list order', () => {
    const both = available('both', { frontmatter: triggers(keywords(['deploy']), pattern('deploy')) });
    const later = available('later', { frontmatter: triggers(keywords(['nothing']), pattern('deploy')) });
    const first = available('a-first', { frontmatter: triggers(keywords(['deploy'])) });
    const matches = match([first, both, later], 'deploy now');
    expect(matches.map((m) => [m.skill, m.triggerIndex, m.trigger.type])).toEqual([
      ['a-first', 0, 'KEYWORDS'],
      ['both', 0, 'KEYWORDS'],
      ['later', 1, 'PATTERN'],
    ]);
  });

  it('finds any skill of its set by name, also those that cannot auto-trigger', () => {
    const plain = available('plain');
    const index = new TriggerIndex([plain, withKeywords('kw', ['x1'])]);
    expect(index.find('plain')).toBe(plain);
    expect(index.find('nope')).toBeUndefined();
    expect(index.stats).toMatchObject({ skills: 2, candidates: 1, keywordTriggers: 1, patternTriggers: 0 });
  });

  it('can be matched again and again with the same result (scratch state is per call)', () => {
    const skills = [withKeywords('a', ['alpha', 'beta']), withKeywords('b', ['beta', 'gamma'])];
    const index = new TriggerIndex(skills);
    for (let i = 0; i < 3; i++) {
      expect(names(index.match('alpha', NO_FILTER))).toEqual(['a']);
      expect(names(index.match('gamma', NO_FILTER))).toEqual(['b']);
      expect(names(index.match('nothing', NO_FILTER))).toEqual([]);
    }
  });
});

describe('the auto-trigger filter (seed 000 §4a, §2c, §7b; seed 002)', () => {
  const spec = (extra: string[] = []) => ({ frontmatter: [...triggers(keywords(['deploy'])), ...extra] });
  const message = 'deploy it';

  it('skips disabled skills (listAvailable never lists them; checked again) and skills without triggers', () => {
    const off = available('off', spec(['enabled: false']));
    expect(match([off, available('none')], message)).toEqual([]);
  });

  it('skips skills already active on the process', () => {
    const skills = [available('a', spec()), available('b', spec())];
    expect(names(match(skills, message, { active: ['a'], allowedSkillsOverride: null }))).toEqual(['b']);
  });

  it('keeps to the whitelist when allowedSkillsOverride is set, and [] is a lockdown', () => {
    const skills = [available('a', spec()), available('b', spec())];
    expect(names(match(skills, message, { active: [], allowedSkillsOverride: ['b'] }))).toEqual(['b']);
    expect(names(match(skills, message, { active: [], allowedSkillsOverride: [] }))).toEqual([]);
  });

  it('skips skills that are not model-invocable: auto-triggering is implicit activation (seed 002)', () => {
    const hidden = available('hidden', spec(['disable-model-invocation: true']));
    const userOnly = available('user-only', spec(['user-invocable: false']));
    expect(names(match([hidden, userOnly], message))).toEqual(['user-only']);
  });

  it('skips spawn skills: only the explicit path spawns (seed 000 §2c)', () => {
    const spawn = available('spawned', spec(['run:', '  target: spawn', '  recipe: code-read', 'action: Review now.']));
    expect(spawn.skill.triggers).toHaveLength(1);
    expect(match([spawn], message)).toEqual([]);
  });
});
