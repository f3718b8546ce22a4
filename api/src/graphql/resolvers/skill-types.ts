import { isModelInvocable, isUserInvocable } from '../../domain/skills';
import type { SkillReferenceDocResolvers, SkillResolvers, SkillRunResolvers, SkillTriggerResolvers } from '../__generated__/resolvers-types';

/** Flattens a resolved skill; a broken one (status INVALID) has only its name, source and diagnostics. */
export const Skill: SkillResolvers = {
  title: (s) => s.skill?.title ?? null,
  description: (s) => s.skill?.description ?? null,
  version: (s) => s.skill?.version ?? null,
  tags: (s) => s.skill?.tags ?? [],
  tools: (s) => s.skill?.tools ?? [],
  manualPaths: (s) => s.skill?.manualPaths ?? [],
  lifecycle: (s) => s.skill?.lifecycle ?? null,
  triggers: (s) => s.skill?.triggers ?? [],
  argumentsMode: (s) => s.skill?.arguments.mode ?? 'NONE',
  arguments: (s) => (s.skill?.arguments.mode === 'NAMED' ? s.skill.arguments.list : []),
  run: (s) => s.skill?.run ?? null,
  activate: (s) => s.skill?.activate ?? [],
  deactivate: (s) => s.skill?.deactivate ?? [],
  action: (s) => s.skill?.action ?? null,
  scripts: (s) => s.skill?.scripts ?? [],
  referenceDocs: (s) => s.references,
  modelInvocable: (s) => (s.skill ? isModelInvocable(s.skill) : false),
  userInvocable: (s) => (s.skill ? isUserInvocable(s.skill) : false),
  body: (s) => s.skill?.promptExtension ?? null,
};

export const SkillTrigger: SkillTriggerResolvers = {
  pattern: (t) => (t.type === 'PATTERN' ? t.pattern : null),
  keywords: (t) => (t.type === 'KEYWORDS' ? t.keywords : null),
  minMatch: (t) => (t.type === 'KEYWORDS' ? t.minMatch : null),
};

export const SkillReferenceDoc: SkillReferenceDocResolvers = {
  title: (r) => r.doc.title,
  file: (r) => r.doc.file,
  summary: (r) => r.doc.summary,
  loadMode: (r) => r.doc.loadMode,
  present: (r) => r.content !== null,
};

export const SkillRun: SkillRunResolvers = {
  recipe: (r) => (r.target === 'spawn' ? r.recipe : null),
  inherit: (r) => (r.target === 'spawn' ? r.inherit : null),
};
