import { DomainError } from '../../errors';
import type { Skill } from '../../skills/skill';
import type { AvailableSkill, LoadedReferenceDoc } from '../../skills/skill-resolver';
import { templateContext } from '../../templates/template-context';
import type { TemplateContext, TemplateEngine } from '../../templates/template-engine';
import { bindSkillArguments } from '../skill-arguments';
import { dataKey } from './data-key';
import type { RenderedBodyCache } from './rendered-body-cache';
import type { TurnWarning } from './turn-warning';

/**
 * The skills section of the system prompt (seed 000 §5a, §5c; DESIGN §10), one block per skill in
 * activation order, lines joined with `\n`:
 *
 *   --- Skill: <name> ---
 *   <description>
 *   <rendered promptExtension>                      (left out when it renders blank)
 *   --- Reference Doc: <title> ---                  (each INLINE doc, in declared order)
 *   <content>
 *   On-demand references — load via skill_reference_doc:   (when the skill has ON_DEMAND docs)
 *   - <title> — <summary>                           (`- <title>` without a summary)
 *
 * Each body is rendered with its own `args` (bound per turn by skill-arguments.ts against the current
 * declaration, seed 000 §2b) on top of the turn's render context; two skills never see each other's
 * arguments, and a skill without `arguments:` sees no `args`. A skill whose arguments no longer bind or whose body fails to render is skipped with a
 * warning and the others compose (seed 000 §5a). Reference contents are data and are never rendered;
 * a reference file missing from the skill's layer is left out with a warning. A body without any
 * template syntax (`{{`, `{%`, `{#`) renders to itself and is not sent to the engine; with a
 * RenderedBodyCache, a body rendered before with the same data is not sent either.
 */
export interface SectionSkill {
  readonly skill: AvailableSkill;
  /** The raw invocation rest (ActiveSkillRef.args); null for none. */
  readonly args: string | null;
}

export interface SkillsSection {
  /** '' when no skill composed. */
  readonly text: string;
  /** Names of the skills in the section, in order. */
  readonly composed: readonly string[];
  readonly warnings: readonly TurnWarning[];
}

export const ON_DEMAND_HEADER = 'On-demand references — load via skill_reference_doc:';
const TEMPLATE_SYNTAX = /\{[{%#]/;

export interface ComposeOptions {
  /** Memoised renders; null or absent renders every templated body. */
  readonly bodies?: RenderedBodyCache | null;
}

interface Renderer {
  readonly templates: TemplateEngine;
  readonly context: Readonly<Record<string, unknown>>;
  readonly bodies: RenderedBodyCache | null;
  /** dataKey(context), computed once per section; null when not memoisable. */
  readonly contextKey: string | null;
  /** The engine's context for the section's renders (the context without `args`), made at the first render. */
  rendering: TemplateContext | null;
}

export async function composeSkillsSection(
  skills: readonly SectionSkill[],
  templates: TemplateEngine,
  renderContext: Readonly<Record<string, unknown>>,
  options: ComposeOptions = {},
): Promise<SkillsSection> {
  const bodies = options.bodies ?? null;
  const renderer: Renderer = { templates, context: renderContext, bodies, contextKey: bodies && skills.length > 0 ? dataKey(renderContext) : null, rendering: null };
  const blocks = await Promise.all(skills.map((entry) => skillBlock(entry, renderer)));
  const texts: string[] = [];
  const composed: string[] = [];
  const warnings: TurnWarning[] = [];
  blocks.forEach((block, i) => {
    warnings.push(...block.warnings);
    if (block.text === null) return;
    texts.push(block.text);
    composed.push(skills[i]!.skill.name);
  });
  return { text: texts.join('\n'), composed, warnings };
}

async function skillBlock(entry: SectionSkill, renderer: Renderer): Promise<{ text: string | null; warnings: TurnWarning[] }> {
  const { name, skill, references } = entry.skill;
  let body: string;
  try {
    const { args } = bindSkillArguments(skill, entry.args);
    body = await renderBody(renderer, skill.promptExtension, args);
  } catch (error) {
    return { text: null, warnings: [{ skill: name, message: skipMessage(name, skill, error) }] };
  }
  const warnings: TurnWarning[] = [];
  const lines = [`--- Skill: ${name} ---`, skill.description];
  if (body.trim() !== '') lines.push(body.trimEnd());
  const present = (ref: LoadedReferenceDoc): ref is LoadedReferenceDoc & { content: string } => {
    if (ref.content !== null) return true;
    warnings.push({ skill: name, message: `Skill '${name}': reference doc '${ref.doc.title}' (${ref.doc.file}) is missing from its layer; left out.` });
    return false;
  };
  const available = references.filter(present);
  for (const ref of available) {
    if (ref.doc.loadMode === 'INLINE') lines.push(`--- Reference Doc: ${ref.doc.title} ---`, ref.content.trimEnd());
  }
  const onDemand = available.filter((ref) => ref.doc.loadMode === 'ON_DEMAND');
  if (onDemand.length > 0) {
    lines.push(ON_DEMAND_HEADER, ...onDemand.map(({ doc }) => (doc.summary ? `- ${doc.title} — ${doc.summary}` : `- ${doc.title}`)));
  }
  return { text: lines.join('\n'), warnings };
}

/** A body rendered with its `args` on top of the context; verbatim when it holds no template syntax. */
function renderBody(renderer: Renderer, source: string, args: Readonly<Record<string, unknown>> | null): Promise<string> {
  if (!TEMPLATE_SYNTAX.test(source)) return Promise.resolve(source);
  const { bodies, contextKey, templates } = renderer;
  // A skill that consumes no arguments has no `args` at all (seed 000 §2b; issue 15). The context
  // goes to the engine once per section; each body adds only its own `args`.
  const renderNow = () => {
    renderer.rendering ??= templateContext(templates, withoutArgs(renderer.context));
    return args === null ? renderer.rendering.render(source) : renderer.rendering.render(source, { args });
  };
  if (!bodies || contextKey === null) return renderNow();
  const argsKey = dataKey(args);
  return bodies.render(templates, source, renderNow, argsKey === null ? null : `${contextKey}\u0001${argsKey}`);
}

function withoutArgs(context: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  if (!Object.hasOwn(context, 'args')) return context;
  const { args: _ignored, ...rest } = context;
  return rest;
}

/** Any failure skips only this skill (seed 000 §5a), also an adapter's unexpected one. */
function skipMessage(name: string, skill: Skill, error: unknown): string {
  if (!(error instanceof DomainError)) return `Skill '${name}' skipped: its body failed to render: ${error instanceof Error ? error.message : String(error)}`;
  if (error.code.startsWith('SKILL_ARGUMENT')) return `Skill '${name}' skipped: ${error.message}.`;
  const line = error.diagnostics[0]?.line;
  const where = line === undefined ? '' : ` (SKILL.md line ${skill.bodyLine + line - 1})`;
  return `Skill '${name}' skipped: its body failed to render${where}: ${error.message}`;
}
