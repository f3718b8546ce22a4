/**
 * `open_skill` / `close_skill` (issue 8, seed 003 "Open and closed"): the two tools a turn offers when
 * `picked` skills exist that the model may invoke. `open_skill`'s description is the (budgeted)
 * catalog of those skills; its answer is the skill's rendered instructions, and the skill is open from
 * the next reply (the next turn's skills section). `close_skill` closes an open one. Both only change
 * the turn's pending open set: the runner commits it when the turn finishes, so a failed turn — and a
 * regenerated one — takes them back.
 */
import type { AvailableSkill } from '../skills/skill-resolver';
import type { ServerTool, ToolResult } from '../tools/server-tool';
import type { BudgetedCatalog } from './skill-catalog-budget';

export const OPEN_SKILL_TOOL = 'open_skill';
export const CLOSE_SKILL_TOOL = 'close_skill';

/** The open set of the reply being written, and what this turn changed. */
export class PendingOpenSkills {
  readonly open: Set<string>;
  readonly opened: string[] = [];
  readonly closed: string[] = [];

  constructor(committed: readonly string[], closesThisTurn: readonly string[] = []) {
    this.open = new Set(committed);
    for (const name of closesThisTurn) if (this.open.delete(name)) this.closed.push(name);
  }

  get changed(): boolean {
    return this.opened.length > 0 || this.closed.length > 0;
  }
}

export interface PickerToolsInput {
  readonly pickable: readonly AvailableSkill[];
  readonly state: PendingOpenSkills;
  readonly catalog: BudgetedCatalog;
  /** The skill's instructions, rendered as the skills section would render them. */
  render(skill: AvailableSkill): Promise<string>;
}

const NAME_PARAM = { type: 'object', properties: { name: { type: 'string', minLength: 1, maxLength: 128, description: 'The skill name, as listed' } }, required: ['name'], additionalProperties: false };

export function skillPickerTools(input: PickerToolsInput): ServerTool[] {
  const byName = new Map(input.pickable.map((s) => [s.name, s]));
  const names = [...byName.keys()];
  const unknown = (name: string): ToolResult => ({ content: `Unknown skill '${name}'. Skills you can open: ${names.join(', ')}.`, isError: true });
  const open: ServerTool = {
    name: OPEN_SKILL_TOOL,
    labels: ['skills'],
    description: [
      'Open one of these skills to get its instructions; from your next reply it stays part of your instructions until you close it.',
      'Open a skill only when the task needs it.',
      '',
      input.catalog.text,
    ].join('\n'),
    parameters: NAME_PARAM,
    async invoke(args) {
      const name = String(args.name ?? '').trim();
      const skill = byName.get(name);
      if (!skill) return unknown(name);
      const already = input.state.open.has(name);
      if (!already) {
        input.state.open.add(name);
        if (!input.state.closed.includes(name)) input.state.opened.push(name);
        else input.state.closed.splice(input.state.closed.indexOf(name), 1);
      }
      const text = await input.render(skill);
      return { content: `${already ? `Skill '${name}' is already open.` : `Opened skill '${name}'.`}\n\n${text}` };
    },
  };
  const close: ServerTool = {
    name: CLOSE_SKILL_TOOL,
    labels: ['skills'],
    description: 'Close an open skill when its instructions are no longer needed. Its instructions leave your prompt from the next reply.',
    parameters: NAME_PARAM,
    async invoke(args) {
      const name = String(args.name ?? '').trim();
      if (!byName.has(name) && !input.state.open.has(name)) return unknown(name);
      if (!input.state.open.delete(name)) return { content: `Skill '${name}' is not open; nothing changed.` };
      const openedNow = input.state.opened.indexOf(name);
      if (openedNow >= 0) input.state.opened.splice(openedNow, 1);
      else input.state.closed.push(name);
      return { content: `Closed skill '${name}'.` };
    },
  };
  return [open, close];
}
