import { describe, expect, it } from 'vitest';
import { isModelInvocable, isUserInvocable } from './invocation-policy';
import { parseSkill } from './parse-skill';

const PATH = '_vance/skills/deploy/SKILL.md';

function parse(fields: string[]) {
  return parseSkill({ name: 'deploy', path: PATH, content: ['---', 'name: deploy', 'title: Deploy', 'description: Ship it', 'version: 1.0.0', ...fields, '---', 'Body'].join('\n') });
}

describe('invocation policy (seed 002)', () => {
  it('gives every parsed skill the policy true/true when neither key is present', () => {
    const { skill } = parse([]);
    expect(skill?.invocation).toEqual({ modelInvocable: true, userInvocable: true });
    expect(isModelInvocable(skill!)).toBe(true);
    expect(isUserInvocable(skill!)).toBe(true);
  });

  it.each([
    { keys: [], model: true, user: true },
    { keys: ['user-invocable: false'], model: true, user: false },
    { keys: ['disable-model-invocation: true'], model: false, user: true },
    { keys: ['disable-model-invocation: true', 'user-invocable: false'], model: false, user: false },
  ])('supports the quadrant $keys → model $model, user $user', ({ keys, model, user }) => {
    const { skill, diagnostics } = parse(keys);
    expect(diagnostics).toEqual([]);
    expect(skill?.invocation).toEqual({ modelInvocable: model, userInvocable: user });
    expect(isModelInvocable(skill!)).toBe(model);
    expect(isUserInvocable(skill!)).toBe(user);
  });

  it.each([
    ['true', true], ['false', false], ['yes', true], ['no', false], ['on', true], ['off', false],
    ['1', true], ['0', false], ['True', true], ['NO', false], ['"yes"', true], ["'OFF'", false],
  ])('reads the spelling %s for both keys', (spelling, value) => {
    const { skill, diagnostics } = parse([`disable-model-invocation: ${spelling}`, `user-invocable: ${spelling}`]);
    expect(diagnostics).toEqual([]);
    expect(skill?.invocation).toEqual({ modelInvocable: !value, userInvocable: value });
  });

  it('refuses a value that is not a boolean spelling, naming the key', () => {
    const { skill, diagnostics } = parse(['user-invocable: sometimes', 'disable-model-invocation: [x]']);
    expect(skill).toBeNull();
    expect(diagnostics).toEqual([
      { severity: 'ERROR', message: "`user-invocable` must be a boolean (true/false, yes/no, on/off, 1/0), found the text 'sometimes'.", path: PATH, line: 6, column: 17, field: 'user-invocable' },
      { severity: 'ERROR', message: '`disable-model-invocation` must be a boolean (true/false, yes/no, on/off, 1/0), found a list.', path: PATH, line: 7, column: 27, field: 'disable-model-invocation' },
    ]);
  });

  it('ignores camel-case and snake-case spellings with a targeted warning at the key', () => {
    const { skill, diagnostics } = parse(['disableModelInvocation: true', 'userInvocable: false', 'modelInvocable: false', 'user_invocable: false']);
    expect(skill?.invocation).toEqual({ modelInvocable: true, userInvocable: true });
    expect(diagnostics).toEqual([
      { severity: 'WARNING', message: '`disableModelInvocation` is not read and has no effect: use the kebab-case key `disable-model-invocation`.', path: PATH, line: 6, column: 1, field: 'disableModelInvocation' },
      { severity: 'WARNING', message: '`userInvocable` is not read and has no effect: use the kebab-case key `user-invocable`.', path: PATH, line: 7, column: 1, field: 'userInvocable' },
      { severity: 'WARNING', message: expect.stringMatching(/^`modelInvocable` is not read and has no effect: write `disable-model-invocation: true`/), path: PATH, line: 8, column: 1, field: 'modelInvocable' },
      { severity: 'WARNING', message: expect.stringMatching(/^`user_invocable` is not read/), path: PATH, line: 9, column: 1, field: 'user_invocable' },
    ]);
  });

  it('treats an absent policy as permitting both surfaces', () => {
    expect(isModelInvocable({})).toBe(true);
    expect(isUserInvocable({ invocation: null })).toBe(true);
  });

  it('warns that triggers never fire on a skill hidden from the model', () => {
    const { skill, diagnostics } = parse(['disable-model-invocation: true', 'triggers: [{ type: KEYWORDS, keywords: [deploy] }]']);
    expect(skill).not.toBeNull();
    expect(diagnostics).toMatchObject([{ severity: 'WARNING', field: 'triggers', line: 7, message: expect.stringMatching(/never fire/) }]);
  });
});
