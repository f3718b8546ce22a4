import { describe, expect, it } from 'vitest';
import { available, NO_FILTER } from '../processes/triggers/testing';
import { TriggerIndex } from '../processes/triggers/trigger-index';
import type { ScanMessages } from '../processes/triggers/trigger-match';
import { skillVerdicts, type ActivationState } from './skill-verdicts';

const SKILLS = [
  available('always', { frontmatter: ['when: always'] }),
  available('sword', { frontmatter: ['when: mentioned', 'triggers: [sword, blade]'] }),
  available('moonlit', { frontmatter: ['when: mentioned', 'triggers: [sword]', 'secondaryTriggers: [moon]', 'selectiveLogic: AND ALL'] }),
  available('daylight', { frontmatter: ['when: mentioned', 'triggers: [sword]', 'secondaryTriggers: [moon]', 'selectiveLogic: NOT ANY'] }),
  available('bare', { frontmatter: ['when: mentioned'] }),
  available('zero', { frontmatter: ['when: mentioned', 'triggers: [sword]', 'scanDepth: 0'] }),
  available('picker', { frontmatter: ['when: picked'] }),
  available('closer', { frontmatter: ['when: picked', 'triggers: [dragon]', 'closeWhenUnmentioned: true'] }),
  available('hidden', { frontmatter: ['when: picked', 'disable-model-invocation: true'] }),
  available('review', { frontmatter: ['triggers:', '  - type: KEYWORDS', '    keywords: [review, diff]', '    minMatch: 1'] }),
  available('plain'),
  available('off', { frontmatter: ['enabled: false'] }),
  available('explicit'),
];

function verdicts(scan: ScanMessages, state: Partial<ActivationState> = {}) {
  const full: ActivationState = { activeSkills: [], openSkills: [], allowedSkills: null, ...state };
  const evaluation = new TriggerIndex(SKILLS).evaluate(scan, { active: full.activeSkills.map((r) => r.name), allowedSkillsOverride: full.allowedSkills });
  return Object.fromEntries(skillVerdicts(SKILLS, full, evaluation).map((v) => [v.skill, v]));
}

describe('skillVerdicts', () => {
  it('gives every candidate skill on/off and one plain sentence', () => {
    const v = verdicts(['the sword in the moonlight, review it'], {
      activeSkills: [{ name: 'explicit', reason: 'Explicit: /skill explicit.' }],
      openSkills: ['picker'],
    });
    const table = Object.values(v).map((x) => [x.skill, x.on, x.reason]);
    expect(table).toEqual([
      ['always', true, 'Always on.'],
      ['sword', true, 'Mentioned: sword.'],
      ['moonlit', false, 'Secondary triggers not met (AND ALL: moon).'],
      ['daylight', true, 'Mentioned: sword.'],
      ['bare', false, 'No triggers.'],
      ['zero', false, 'Scan depth 0: never matches.'],
      ['picker', true, 'Open (picked by the model).'],
      ['closer', false, 'Not opened.'],
      ['hidden', false, 'Not opened: the model may not pick it (disable-model-invocation).'],
      ['review', true, 'Auto-triggered: review.'],
      ['plain', false, 'Not active.'],
      ['off', false, 'Disabled.'],
      ['explicit', true, 'Explicit: /skill explicit.'],
    ]);
    expect(v.sword!.when).toBe('mentioned');
    expect(v.review!.when).toBeNull();
  });

  it('reports secondary exclusions and plain misses', () => {
    const v = verdicts(['sword under the moon']);
    expect(v.moonlit).toMatchObject({ on: true, reason: 'Mentioned: sword.' });
    expect(v.daylight).toMatchObject({ on: false, reason: 'Excluded by secondary triggers (NOT ANY: moon).' });
    const quiet = verdicts(['nothing here']);
    expect([quiet.sword!.reason, quiet.review!.reason]).toEqual(['Not mentioned.', 'Not triggered.']);
  });

  it('closes an open picked skill with closeWhenUnmentioned once its triggers no longer match', () => {
    expect(verdicts(['a dragon!'], { openSkills: ['closer'] }).closer).toMatchObject({ on: true, closes: false, reason: 'Open (picked by the model).' });
    expect(verdicts(['a cat'], { openSkills: ['closer'] }).closer).toMatchObject({ on: false, closes: true, reason: 'Closed: no longer mentioned.' });
    // seed 003: a picked skill with no triggers stays open.
    expect(verdicts(['a cat'], { openSkills: ['picker'] }).picker).toMatchObject({ on: true, closes: false });
  });

  it('refuses what the recipe whitelist does not allow, lockdown included, but keeps active skills', () => {
    const v = verdicts(['sword'], { allowedSkills: ['sword', 'explicit'], activeSkills: [{ name: 'explicit', reason: 'Recipe: analyze.' }] });
    expect(v.always).toMatchObject({ on: false, reason: 'Not allowed by the recipe.' });
    expect(v.sword).toMatchObject({ on: true });
    expect(v.explicit).toMatchObject({ on: true, reason: 'Recipe: analyze.' });
    expect(Object.values(verdicts(['sword'], { allowedSkills: [] })).filter((x) => x.on)).toEqual([]);
  });

  it('uses the scan depth across several messages', () => {
    const deep = available('deep', { frontmatter: ['when: mentioned', 'triggers: [sword]', 'scanDepth: 3'] });
    const skills = [deep, SKILLS[1]!];
    const state: ActivationState = { activeSkills: [], openSkills: [], allowedSkills: null };
    const scan = ['and then?', 'he left', 'he drew his sword'];
    const result = skillVerdicts(skills, state, new TriggerIndex(skills).evaluate(scan, NO_FILTER));
    expect(result.map((x) => [x.skill, x.on])).toEqual([['deep', true], ['sword', false]]);
  });
});
