/**
 * `skill_reference_doc(skill, title)` (seed 000 §5c, DESIGN §10): loads a reference doc declared
 * by a skill that is active on the process. The file is read from the layer of the SKILL.md only
 * (SkillResolver pins it, seed 000 §2). ON_DEMAND docs are the point; INLINE docs are also served
 * (they are already in the prompt, but a model may ask again after a long conversation).
 */
import type { SkillResolver } from '../../skills/skill-resolver';
import { objectSchema } from './json-schema';
import { activeSkillNames, ok, quoteList, refuse, str, type BuiltinTool } from './tool-support';

export interface SkillReferenceDocDeps {
  readonly skills: SkillResolver;
}

export function skillReferenceDocTool(deps: SkillReferenceDocDeps): BuiltinTool {
  return {
    name: 'skill_reference_doc',
    labels: ['read', 'skills'],
    description:
      'Load a reference document of one of your active skills, by skill name and document title, as listed under ' +
      '"On-demand references" in the skills section of your instructions. Returns the document text. Only skills active ' +
      'on this process and the titles they declare can be loaded; an unknown title is an error listing the titles.',
    parameters: objectSchema({
      skill: { type: 'string', minLength: 1, maxLength: 128, description: 'The active skill\'s name' },
      title: { type: 'string', minLength: 1, maxLength: 300, description: 'The reference document title, as listed' },
    }, ['skill', 'title']),
    async invoke(args, ctx) {
      const name = str(args, 'skill').trim();
      const title = str(args, 'title').trim();
      const active = activeSkillNames(ctx.process);
      if (!active.includes(name)) return refuse(`Skill '${name}' is not active on this process. Active skills: ${quoteList(active)}.`);
      const loaded = await deps.skills.load(ctx.scope, name);
      if (!loaded || loaded.skill.lifecycle === 'shot') return refuse(`Skill '${name}' is not available in this project any more (deleted, disabled or invalid).`);
      const refs = loaded.references;
      const ref = refs.find((r) => r.doc.title === title) ?? refs.find((r) => r.doc.title.trim().toLowerCase() === title.toLowerCase());
      if (!ref) {
        return refuse(`Skill '${name}' has no reference document titled '${title}'. Its reference documents: ${quoteList(refs.map((r) => r.doc.title))}.`);
      }
      if (ref.content === null) return refuse(`The reference document '${ref.doc.title}' of skill '${name}' is missing its file '${ref.doc.file}'.`);
      return ok(`# ${ref.doc.title} (skill ${name})\n\n${ref.content}`);
    },
  };
}
