/** Skills (seed 000, seed 002): the SKILL.md model and parser, Java-regex triggers on RE2, cascade resolution. */
export * from './skill';
export * from './errors';
export { parseSkill, type ParsedSkill, type SkillSource } from './parse-skill';
export { compileJavaRegex, type JavaRegexResult } from './java-regex';
export { TriggerRegex, type JsRegexSource } from './trigger-regex';
export { backtrackingWarning, type BacktrackingAnalyser, type BacktrackingVerdict } from './backtracking-analyser';
export { DEFAULT_INVOCATION_POLICY, isModelInvocable, isUserInvocable } from './invocation-policy';
export { SKILLS_PREFIX, SKILL_FILE_NAME, skillDocumentPath, skillNameOfPath, skillNameProblem, skillSiblingPath } from './skill-paths';
export {
  SkillResolver,
  type AvailableSkill,
  type DisabledSkill,
  type InvalidSkill,
  type LoadedReferenceDoc,
  type ResolvedSkill,
  type ResolvedSkillStatus,
  type SkillResolverOptions,
} from './skill-resolver';
export { SKILL_PATH_PATTERN, skillDocumentKind, type SkillDocumentKind } from './skill-document-kind';
export * from './skill-catalog';
export { ACTIVATION_KEYS } from './known-keys';
