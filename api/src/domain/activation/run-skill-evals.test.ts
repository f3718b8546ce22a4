import { describe, expect, it } from 'vitest';
import { available, keywords, pattern, triggers } from '../processes/triggers/testing';
import { TriggerIndex } from '../processes/triggers/trigger-index';
import type { AvailableSkill } from '../skills/skill-resolver';
import { parseSkillEvals } from './parse-skill-evals';
import { runSkillEvals, type SkillPickJudge } from './run-skill-evals';
import { SkillTriggerBench } from './skill-trigger-bench';

const SKILLS = [
  available('review', { frontmatter: triggers(keywords(['review', 'diff'], 1), pattern('\\bpr\\s*#?\\d+')) }),
  available('git', { frontmatter: triggers(keywords(['diff', 'commit'], 1)) }),
  available('lore', { frontmatter: ['when: mentioned', 'triggers: [sword]'] }),
  available('chooser', { description: 'Pick me for dragons', frontmatter: ['when: picked'] }),
];

function env(skills: readonly AvailableSkill[] = SKILLS, judge: SkillPickJudge | null = null) {
  return {
    skills, index: new TriggerIndex(skills), judge,
    recipe: async (name: string) => {
      if (name !== 'narrow') throw new Error(`no recipe '${name}'`);
      return { name, allowedSkills: ['git'], defaultActiveSkills: [] };
    },
  };
}

function evals(yaml: string) {
  const parsed = parseSkillEvals('evals.yaml', yaml);
  if (!parsed.evals) throw new Error(JSON.stringify(parsed.diagnostics));
  return parsed.evals;
}

describe('runSkillEvals', () => {
  it('passes and fails cases with the verdict sentence a turn gives, and counts precision, recall and confusions', async () => {
    const report = await runSkillEvals('review', evals([
      'cases:',
      '  - message: please review this',
      '    fires: true',
      '  - message: show me the diff',
      '    fires: true',
      '  - message: what is the weather',
      '    fires: true',
      '  - message: just a commit',
      '    fires: false',
      '  - message: review my essay',
      '    fires: false',
    ].join('\n')), env());
    expect(report.cases.map((c) => [c.line, c.passed, c.verdict])).toEqual([
      [2, true, 'Mentioned: review.'],
      [4, true, 'Mentioned: diff.'],
      [6, false, 'Not triggered.'],
      [8, true, 'Not triggered.'],
      [10, false, 'Mentioned: review.'],
    ]);
    expect(report.cases[2]?.problems).toEqual(['Expected to fire; it did not.']);
    expect([report.passed, report.failed, report.skipped]).toEqual([3, 2, 0]);
    // 2 fired as expected, 1 fired unexpectedly, 1 expected but missed.
    expect(report.precision).toBeCloseTo(2 / 3);
    expect(report.recall).toBeCloseTo(2 / 3);
    expect(report.confusions).toEqual([{ skill: 'git', cases: [1] }]);
  });

  it('gives the same sentence as the trigger bench for the same conversation', async () => {
    const bench = new SkillTriggerBench({
      scope: async () => ({ tenantId: 't', projectId: 'p' }) as never,
      skills: async () => SKILLS,
      indexes: { load: async (skills: readonly AvailableSkill[]) => new TriggerIndex(skills) } as never,
      resolveRecipe: async () => { throw new Error('unused'); },
    });
    const messages = ['earlier', 'look at pr #12 please'];
    const benchReason = (await bench.test({} as never, null, messages, null)).find((v) => v.skill === 'review')?.reason;
    const report = await runSkillEvals('review', evals('cases:\n  - messages: [earlier, "look at pr #12 please"]\n    fires: true'), env());
    expect(report.cases[0]?.verdict).toBe(benchReason);
    expect(benchReason).toBe('Matched /\\bpr\\s*#?\\d+/.');
  });

  it('checks which trigger matched, one-shot activation and "only this skill"', async () => {
    const report = await runSkillEvals('review', evals([
      'cases:',
      '  - message: see pr 7',
      '    fires: true',
      '    trigger: 2',
      '  - message: see pr 7',
      '    fires: true',
      '    trigger: review, diff',
      '  - message: review it',
      '    fires: true',
      '    oneShot: false',
      '  - message: review the diff',
      '    fires: true',
      '    only: true',
    ].join('\n')), env());
    expect(report.cases.map((c) => c.passed)).toEqual([true, false, false, false]);
    expect(report.cases[1]?.problems).toEqual(["Expected trigger 'review, diff'; trigger #2 (/\\bpr\\s*#?\\d+/) matched."]);
    expect(report.cases[3]?.problems).toEqual(['Expected only this skill to fire; also: git.']);
    const lore = await runSkillEvals('lore', evals('cases:\n  - message: a sword\n    fires: true\n    oneShot: false'), env());
    expect(lore.cases[0]).toMatchObject({ passed: true, verdict: 'Mentioned: sword.' });
  });

  it('applies a recipe whitelist and reports a recipe that does not resolve as a failed case', async () => {
    const report = await runSkillEvals('review', evals('cases:\n  - message: review\n    recipe: narrow\n    fires: false\n  - message: review\n    recipe: nope\n    fires: true'), env());
    expect(report.cases[0]).toMatchObject({ passed: true, verdict: 'Not allowed by the recipe.' });
    expect(report.cases[1]).toMatchObject({ passed: false, verdict: "Recipe 'nope' does not resolve: no recipe 'nope'" });
  });

  it('skips picked cases without a judge and measures the rate with one', async () => {
    const file = evals('picked: { runs: 4, threshold: 0.75 }\ncases:\n  - message: a dragon!\n    picked: true\n  - message: a cat\n    picked: false');
    const skipped = await runSkillEvals('chooser', file, env());
    expect(skipped.cases.map((c) => [c.skipped, c.passed])).toEqual([[true, true], [true, true]]);
    expect(skipped.notes).toEqual(['picked: cases skipped: no model provider is configured.']);
    let call = 0;
    // Opens on 3 of 4 calls for dragons (75%: passes), always on cats (0% left closed: fails).
    const judge: SkillPickJudge = { opens: async (_s, _all, messages) => (messages[0]?.includes('dragon') ? call++ % 4 !== 3 : true) };
    const judged = await runSkillEvals('chooser', file, env(SKILLS, judge));
    expect(judged.cases.map((c) => [c.passed, c.rate, c.verdict])).toEqual([
      [true, 0.75, 'Opened in 3 of 4 runs (75%; threshold 75%).'],
      [false, 0, 'Left closed in 0 of 4 runs (0%; threshold 75%).'],
    ]);
  });
});
