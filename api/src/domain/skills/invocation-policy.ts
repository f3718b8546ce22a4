import type { FrontmatterReader } from './frontmatter-reader';
import { DISABLE_MODEL_INVOCATION, USER_INVOCABLE } from './known-keys';
import type { InvocationPolicy } from './skill';

/**
 * Seed 002, adopted: who may invoke a skill. The frontmatter speaks the Claude-compatible kebab-case
 * keys — the negative `disable-model-invocation` and the positive `user-invocable` — with the boolean
 * spellings of DESIGN §10; the domain holds one positive, symmetric, always-present policy. Listing
 * stays surface-neutral: every consumer picks `isModelInvocable`, `isUserInvocable`, both, or none.
 * Camel-case (and snake-case) spellings are not aliases: they are ignored with a targeted warning,
 * so a non-standard key never silently changes who can invoke a skill.
 */
export const DEFAULT_INVOCATION_POLICY: InvocationPolicy = Object.freeze({ modelInvocable: true, userInvocable: true });

/** Seed 002: an absent policy permits both surfaces. */
export function isModelInvocable(skill: { readonly invocation?: InvocationPolicy | null }): boolean {
  return skill.invocation?.modelInvocable ?? true;
}

export function isUserInvocable(skill: { readonly invocation?: InvocationPolicy | null }): boolean {
  return skill.invocation?.userInvocable ?? true;
}

const squash = (key: string) => key.toLowerCase().replace(/[-_\s]/g, '');

/** Misspellings by their squashed form, with the advice for each. */
const WRONG_SPELLINGS: ReadonlyMap<string, string> = new Map([
  ['disablemodelinvocation', `use the kebab-case key \`${DISABLE_MODEL_INVOCATION}\``],
  ['disablemodelinvokation', `use the kebab-case key \`${DISABLE_MODEL_INVOCATION}\``],
  ['userinvocable', `use the kebab-case key \`${USER_INVOCABLE}\``],
  ['userinvokable', `use the kebab-case key \`${USER_INVOCABLE}\``],
  ['modelinvocable', `write \`${DISABLE_MODEL_INVOCATION}: true\` to hide the skill from the model (the positive key is not a frontmatter key)`],
  ['modelinvokable', `write \`${DISABLE_MODEL_INVOCATION}: true\` to hide the skill from the model (the positive key is not a frontmatter key)`],
]);

export interface InvocationRead {
  readonly policy: InvocationPolicy;
  /** Top-level keys this reader reported on (the exact keys and the misspellings). */
  readonly handledKeys: readonly string[];
}

export function readInvocationPolicy(reader: FrontmatterReader, frontmatter: Readonly<Record<string, unknown>>): InvocationRead {
  const handledKeys: string[] = [];
  for (const key of Object.keys(frontmatter)) {
    if (key === DISABLE_MODEL_INVOCATION || key === USER_INVOCABLE) {
      handledKeys.push(key);
      continue;
    }
    const advice = WRONG_SPELLINGS.get(squash(key));
    if (advice) {
      handledKeys.push(key);
      reader.keyWarning([key], `\`${key}\` is not read and has no effect: ${advice}.`);
    }
  }
  // When either key is present the other takes its default (seed 002): both fields are always set.
  const disableModel = reader.booleanish([DISABLE_MODEL_INVOCATION], frontmatter[DISABLE_MODEL_INVOCATION], false);
  const userInvocable = reader.booleanish([USER_INVOCABLE], frontmatter[USER_INVOCABLE], true);
  const policy = !disableModel && userInvocable ? DEFAULT_INVOCATION_POLICY : { modelInvocable: !disableModel, userInvocable };
  return { policy, handledKeys };
}
