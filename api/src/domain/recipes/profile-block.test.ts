import { describe, expect, it } from 'vitest';
import { parseRecipe } from './parse-recipe';
import { selectProfileBlock } from './profile-block';
import { recipeYaml } from './testing';

const recipe = (extra: string) => parseRecipe({ name: 'r', path: 'r', content: recipeYaml(extra) }).recipe!;
const WITH_DEFAULT = recipe('profiles:\n  foot:\n    params: { a: foot }\n  default:\n    params: { a: default }\n');

describe('selectProfileBlock (seed 004 §6a)', () => {
  it('takes the exact profile block when there is one', () => {
    expect(selectProfileBlock(WITH_DEFAULT, 'foot')).toMatchObject({ profile: 'foot', match: 'EXACT', block: { name: 'foot' } });
  });

  it('falls back to the default block for a profile without a block, also a custom one', () => {
    expect(selectProfileBlock(WITH_DEFAULT, 'ci-bot')).toMatchObject({ profile: 'ci-bot', match: 'DEFAULT', block: { name: 'default' } });
  });

  it('uses the recipe base when neither exists', () => {
    expect(selectProfileBlock(recipe('profiles:\n  foot: {}\n'), 'mobile')).toEqual({ profile: 'mobile', match: 'NONE', block: null });
  });

  it('looks up the wire default web when no profile is given', () => {
    expect(selectProfileBlock(WITH_DEFAULT, null)).toMatchObject({ profile: 'web', match: 'DEFAULT' });
  });
});
