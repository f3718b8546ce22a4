/**
 * One turn event as a readable timeline line. Payloads are JSON in the schema; these readers take
 * what they need and fall back to the bare event type, so a new or older payload never breaks the
 * stream. TextDelta is not a step: the stream joins it into the turn's text.
 */
import type { TurnEvent } from '../api/types';

export type StepTone = 'plain' | 'log' | 'warning' | 'error';
export interface TurnStep { id: string; type: string; text: string; tone: StepTone }

type Payload = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const obj = (v: unknown): Payload | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Payload) : null);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const names = (v: unknown): string[] => list(v).filter((x): x is string => typeof x === 'string');
const fmt = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, word: string) => `${fmt(n)} ${word}${n === 1 ? '' : 's'}`;

function skillVerdicts(p: Payload): string {
  const verdicts = list(p.verdicts).map(obj);
  const on = verdicts.filter((v) => v?.on === true).map((v) => str(v?.skill) ?? '?');
  const open = names(p.openSkills);
  const warnings = list(p.warnings).length;
  return `SkillVerdicts: ${on.length} of ${verdicts.length} on${on.length ? ` (${on.join(', ')})` : ''}`
    + `${open.length ? ` · open ${open.join(', ')}` : ''}${warnings ? ` · ${plural(warnings, 'warning')}` : ''}`;
}

function promptComposed(p: Payload): string {
  const tokens = obj(p.tokens);
  const total = num(tokens?.total), window = num(tokens?.window);
  const model = str(p.model);
  return `PromptComposed${model ? `: ${model}` : ''}${total !== null && window !== null ? ` · ${fmt(total)} of ${fmt(window)} tokens` : ''}`
    + `${num(p.droppedHistory) ? ` · ${plural(num(p.droppedHistory) ?? 0, 'history message')} dropped` : ''}`;
}

function guardRan(p: Payload): { text: string; tone: StepTone } {
  const head = `GuardRan ${str(p.guard) ?? '?'} @ ${str(p.point) ?? '?'}`;
  const failed = obj(p.failed);
  if (failed) return { text: `${head}: failed ${str(failed.kind) ?? ''}: ${str(failed.message) ?? ''}${p.failOpen === true ? ' (fail-open, the turn goes on)' : ''}`, tone: 'error' };
  const skipped = str(p.skipped);
  if (skipped !== null) return { text: `${head}: skipped — ${skipped}`, tone: 'warning' };
  const round = num(p.round);
  return { text: `${head}: ${p.continued === true ? `continued${round ? ` (round ${round})` : ''}` : 'passed'}`, tone: 'log' };
}

function turnFinished(p: Payload): string {
  const open = obj(p.openSkills);
  const opened = names(open?.opened), closed = names(open?.closed);
  const followUps = num(p.guardFollowUps) ?? 0;
  return `TurnFinished${str(p.finishReason) ? ` (${str(p.finishReason)})` : ''}`
    + `${followUps ? ` · ${plural(followUps, 'guard follow-up')}` : ''}`
    + `${opened.length ? ` · opened ${opened.join(', ')}` : ''}${closed.length ? ` · closed ${closed.join(', ')}` : ''}`;
}

export function describeTurnEvent(e: TurnEvent): TurnStep {
  const p = e.payload;
  const step = (text: string, tone: StepTone = 'plain'): TurnStep => ({ id: e.id, type: e.type, text, tone });
  switch (e.type) {
    case 'SkillVerdicts': return step(skillVerdicts(p));
    case 'PromptComposed': return step(promptComposed(p));
    case 'ToolCallStarted': return step(`ToolCallStarted ${str(p.name) ?? ''}`);
    case 'ToolCallFinished': return step(`ToolCallFinished ${str(p.name) ?? ''}${p.isError === true ? ' (error)' : ''}`, p.isError === true ? 'warning' : 'plain');
    case 'ScriptLog': {
      const level = str(p.level) ?? 'info';
      return step(`ScriptLog [${level}] ${str(p.source) ?? '?'}: ${str(p.message) ?? ''}`, level === 'error' ? 'error' : level === 'warn' ? 'warning' : 'log');
    }
    case 'GuardRan': {
      const { text, tone } = guardRan(p);
      return step(text, tone);
    }
    case 'TurnFinished': return step(turnFinished(p));
    case 'TurnFailed': return step(`TurnFailed: ${str(p.message) ?? str(p.code) ?? ''}`, 'error');
    default: return step(e.type);
  }
}
