import { describe, expect, it } from 'vitest';
import { compileJavaRegex } from '../../skills/java-regex';
import { evaluateTriggersNaive, matchTriggersNaive } from './naive-matcher';
import { requiredLiterals, scanText } from './required-literals';
import { available, keywords, pattern, triggers } from './testing';
import { TriggerIndex } from './trigger-index';
import { randomPattern } from '../../testing/random-pattern';

/**
 * The inverted index and the literal prefilter are optimisations only: on any message they must give
 * exactly what running every trigger gives (matchTriggersNaive), matches, evidence and reasons alike.
 */
function rng(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 16807) % 2147483647) / 2147483647;
}

const SKILLS = [
  available('review', { frontmatter: triggers(keywords(['review', 'diff', 'pull request'])) }),
  available('view', { frontmatter: triggers(keywords(['view', 'preview'], 1)) }),
  available('decide', { frontmatter: triggers(keywords(['abwägen', 'besser', 'vergleich', 'option']), pattern('(?i)\\b(was|which|welche[ns]?)\\b.*\\b(better|besser)\\b')) }),
  available('de-review', { frontmatter: triggers(pattern('(?i)schau.*(diff|PR|änderung)')) }),
  available('ts', { frontmatter: triggers(keywords(['typescript', 'tsconfig']), pattern('(?i)(\\.(ts|tsx|mts|cts)\\b|\\btsc\\b|\\bts[0-9]{4}\\b)')) }),
  available('deploy', { frontmatter: triggers(pattern('deploy(ment)? to (prod|staging)'), keywords(['rollout', 'release', 'deploy'], 2)) }),
  available('colour', { frontmatter: triggers(pattern('colou?r[- ]?scheme')) }),
  available('hash', { frontmatter: triggers(pattern('^[0-9a-f]{7,40}$')) }),
  available('class', { frontmatter: triggers(pattern('\\bclass\\s+\\w+')) }),
  available('dots', { frontmatter: triggers(pattern('file\\.(md|txt)'), pattern('\\Q(x)\\E')) }),
  // Lookaround and backreferences are refused since issue 13 (RE2); these are the shapes that replaced them.
  available('look', { frontmatter: [...triggers(pattern('tok(en)?s?')), 'secondaryTriggers: [secret]', 'selectiveLogic: AND ALL'] }),
  available('repeat', { frontmatter: triggers(pattern('(\\w+) (\\w+)\\b.*\\bclass\\b')) }),
  // Shapes that backtrack exponentially or polynomially elsewhere run in linear time here.
  available('nested', { frontmatter: triggers(pattern('(a{1,5})+b'), pattern('(x+x+)+y')) }),
  available('phrases', { frontmatter: triggers(keywords(['state of the art', 'art', 'the state'], 2)) }),
  available('umlaut', { frontmatter: triggers(pattern('größe|grösse'), keywords(['übersicht', 'änderung'])) }),
  available('multi', { frontmatter: triggers(pattern('(alpha|beta)(gamma|delta)+'), pattern('x+y+z+'), keywords(['alpha', 'gamma', 'delta', 'beta'], 3)) }),
];

const VOCABULARY = [
  'review', 'Review', 'REVIEWS', 'preview', 'view', 'viewer', 'diff', 'diffs', 'pull', 'request', 'Pull-Request', 'a', 'the', 'of', 'state', 'art',
  'abwägen', 'ABWÄGEN', 'abwa\u0308gen', 'besser', 'which', 'welches', 'was', 'better', 'option', 'vergleich', 'schau', 'Schau', 'änderung', 'PR',
  'typescript', 'tsconfig', 'app.ts', 'x.tsx', 'tsc', 'TS2345', 'ts', 'deploy', 'deployment', 'to', 'prod', 'staging', 'rollout', 'release',
  'color', 'colour-scheme', 'colorscheme', 'scheme', 'deadbeef', 'DEADBEEF12', '0123456', 'class', 'claſſ', 'Foo', 'file.md', 'file.txt', 'filexmd', '(x)',
  'secret', 'token', 'tokens', 'tok', 'aaaaab', 'aaaaaa', 'xxxxy', 'xy', 'größe', 'grösse', 'GRÖSSE', 'übersicht', 'alpha', 'beta', 'gamma', 'delta', 'alphagamma', 'betadeltadelta', 'xyz', 'xxyyzz',
  ',', '.', '!', '?', '-', '\n', '—', '"', '42', 'ok',
];

function message(random: () => number): string {
  const length = Math.floor(random() * 14);
  const separators = [' ', ' ', ' ', '', ', ', '-', '\n', '.'];
  let text = '';
  for (let i = 0; i < length; i++) {
    text += VOCABULARY[Math.floor(random() * VOCABULARY.length)]! + separators[Math.floor(random() * separators.length)]!;
  }
  return random() < 0.2 ? text.toUpperCase() : text;
}

describe('TriggerIndex ≡ matchTriggersNaive (property)', () => {
  const index = new TriggerIndex(SKILLS);

  it('uses the prefilter for most patterns of the fixed set', () => {
    expect(index.stats.patternTriggers).toBe(16);
    expect(index.stats.unfilteredPatterns).toBeLessThanOrEqual(3);
  });

  it('gives exactly the naive matches on 3,000 random messages with random process filters', () => {
    const random = rng(20240611);
    let fired = 0;
    for (let i = 0; i < 3000; i++) {
      const text = message(random);
      const active = SKILLS.filter(() => random() < 0.15).map((s) => s.name);
      const roll = random();
      const allowedSkillsOverride = roll < 0.7 ? null : roll < 0.75 ? [] : SKILLS.filter(() => random() < 0.6).map((s) => s.name);
      const filter = { active, allowedSkillsOverride };
      const expected = matchTriggersNaive(SKILLS, text, filter);
      expect(index.match(text, filter), text).toEqual(expected);
      fired += expected.length;
    }
    // The set is meant to fire often; a property that never fires proves nothing.
    expect(fired).toBeGreaterThan(1000);
  });
});

describe('requiredLiterals is sound (property)', () => {
  const ATOMS = ['a', 'b', 'ab', 'ba', 'S', 's', 'k', '.', '\\.', '[ab]', '\\d', '\\w', '\\s', ' ', 'ä', '-', '\\b', '^', '$', 'x'];
  const QUANTIFIERS = ['', '', '', '?', '*', '+', '{2}', '{0,2}', '{1,}', '??', '+?'];

  const ALPHABET = { atoms: ATOMS, quantifiers: QUANTIFIERS, anchors: ['\\b', '^', '$'] };

  it('never misses: whenever a regex matches a lower-cased text, one of its literals occurs there', () => {
    const random = rng(77);
    const letters = ['a', 'b', 'A', 'B', 's', 'S', 'ſ', 'k', 'K', '\u212a', '.', ' ', '1', 'ä', 'Ä', 'x', '-'];
    let checked = 0;
    for (let i = 0; i < 10_000; i++) {
      const compiled = compileJavaRegex(randomPattern(random, ALPHABET));
      if (!compiled.ok) continue;
      const literals = requiredLiterals(compiled.regex);
      if (!literals) continue;
      for (let t = 0; t < 30; t++) {
        const text = Array.from({ length: Math.floor(random() * 12) }, () => letters[Math.floor(random() * letters.length)]!).join('').toLowerCase();
        if (!compiled.regex.test(text)) continue;
        checked++;
        const scanned = scanText(text);
        expect(literals.some((l) => scanned.includes(l)), `/${compiled.regex.source}/ on ${JSON.stringify(text)} needs one of ${JSON.stringify(literals)}`).toBe(true);
      }
    }
    expect(checked).toBeGreaterThan(500);
  });
});

describe('TriggerIndex.evaluate ≡ evaluateTriggersNaive with the issue-8 controls (property)', () => {
  const logics = ['AND ANY', 'AND ALL', 'NOT ANY', 'NOT ALL'];
  const CONTROLLED = [
    available('sword', { frontmatter: ['when: mentioned', 'triggers: [sword, "/bla+de/"]', 'secondaryTriggers: [moon, night]', 'selectiveLogic: AND ANY', 'scanDepth: 3'] }),
    available('all', { frontmatter: ['triggers: [sword]', 'secondaryTriggers: [moon, "/dark(ness)?/"]', 'selectiveLogic: AND ALL', 'scanDepth: 2'] }),
    available('notany', { frontmatter: ['triggers: [review, diff]', 'secondaryTriggers: [draft]', 'selectiveLogic: NOT ANY'] }),
    available('notall', { frontmatter: ['triggers: [review]', 'secondaryTriggers: [moon, sun]', 'selectiveLogic: NOT ALL', 'scanDepth: 4'] }),
    available('cased', { frontmatter: ['triggers: [Sword, "pull request", "/Moon/", "/night/i"]', 'caseSensitive: true', 'scanDepth: 2'] }),
    available('sub', { frontmatter: ['triggers: [wor, "ä", Rev]', 'matchWholeWords: false', 'secondaryTriggers: [oo]', 'selectiveLogic: and_any', 'scanDepth: 3'] }),
    available('subcased', { frontmatter: ['triggers: [Wor, Änd]', 'matchWholeWords: false', 'caseSensitive: true', 'scanDepth: 5'] }),
    available('mixed', { frontmatter: [...triggers(keywords(['alpha', 'beta', 'gamma'], 2), pattern('schau.*(diff|pr)')), 'secondaryTriggers: [delta, "/x+y/"]', `selectiveLogic: ${logics[1]}`, 'scanDepth: 2'] }),
    available('zero', { frontmatter: ['triggers: [sword]', 'scanDepth: 0'] }),
    available('picked', { frontmatter: ['when: picked', 'triggers: [moon]', 'closeWhenUnmentioned: true', 'scanDepth: 2'] }),
    available('picked-open', { frontmatter: ['when: picked', 'triggers: [moon]'] }),
    available('always', { frontmatter: ['when: always', 'triggers: [sword]'] }),
    ...SKILLS,
  ];
  const WORDS = [...VOCABULARY, 'sword', 'Sword', 'SWORD', 'swords', 'blaade', 'BLADE', 'moon', 'Moon', 'night', 'NIGHT', 'dark', 'darkness', 'draft', 'sun', 'Wor', 'word', 'Änderung', 'änd', 'oo', 'boot', 'delta', 'xxy', 'Pull', 'request', 'pull request'];

  it('gives exactly the naive evaluation on 3,000 random conversations of up to six messages', () => {
    const index = new TriggerIndex(CONTROLLED);
    const random = rng(8);
    const conversationMessage = (): string => {
      const length = Math.floor(random() * 10);
      let text = '';
      for (let i = 0; i < length; i++) text += WORDS[Math.floor(random() * WORDS.length)]! + [' ', ' ', '', ', ', '-', '\n'][Math.floor(random() * 6)]!;
      return text;
    };
    let matched = 0;
    let missed = 0;
    for (let i = 0; i < 3000; i++) {
      const scan = Array.from({ length: Math.floor(random() * 7) }, conversationMessage);
      const active = CONTROLLED.filter(() => random() < 0.1).map((s) => s.name);
      const allowedSkillsOverride = random() < 0.8 ? null : CONTROLLED.filter(() => random() < 0.7).map((s) => s.name);
      const filter = { active, allowedSkillsOverride };
      const expected = evaluateTriggersNaive(CONTROLLED, scan, filter);
      expect(index.evaluate(scan, filter), JSON.stringify(scan)).toEqual(expected);
      expect(index.match(scan, filter)).toEqual(matchTriggersNaive(CONTROLLED, scan, filter));
      matched += expected.matches.length;
      missed += expected.misses.length;
    }
    expect(matched).toBeGreaterThan(2000);
    expect(missed).toBeGreaterThan(300);
  });
});
