/**
 * The activation log's rows (issue 17 point 6), built from a process's stored events: per turn the
 * candidate skills and their verdicts, what the budget cut, the guards that ran, what the model opened
 * or closed; between turns the activations, refusals, clears, command steps and guards of
 * processEvents. Each row says whose doing it was (its origin), read from the reason sentence the
 * server stored. Payloads are JSON: readers take what they need, so an older event never breaks it.
 */
import type { TurnEvent } from '../api/types';

export type EntryKind = 'turn' | 'candidate' | 'activated' | 'refused' | 'cleared' | 'budget' | 'guard' | 'command' | 'model' | 'spawned';
export const ENTRY_KINDS: readonly EntryKind[] = ['turn', 'candidate', 'activated', 'refused', 'cleared', 'budget', 'guard', 'command', 'model', 'spawned'];

export interface LogEntry {
  key: string;
  at: string;
  /** 1-based turn number, null between turns. */
  turn: number | null;
  kind: EntryKind;
  skill: string | null;
  /** Whose doing: user, model, trigger, recipe, spawn, start guard, always, guard, command. */
  origin: string | null;
  text: string;
  /** For candidates: did the skill fire this turn. */
  on?: boolean;
  tone?: 'error' | 'warning';
}

/** A processEventLog row as the page reads it (the union's fields it asks for). */
export interface ProcessLogEvent {
  id: string;
  type: string;
  at: string;
  skill?: string | null;
  reason?: string | null;
  code?: string | null;
  oneShot?: boolean;
  fromRecipe?: boolean;
  command?: string | null;
  error?: string | null;
  detail?: string | null;
  phase?: string | null;
  guard?: string;
  point?: string;
  continued?: boolean;
  skipped?: string | null;
  failed?: { kind?: string; message?: string } | null;
  denied?: string | null;
  childName?: string;
}

type Payload = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const obj = (v: unknown): Payload | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Payload) : null);
const list = (v: unknown): Payload[] => (Array.isArray(v) ? v.map(obj).filter((x): x is Payload => x !== null) : []);
const names = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** Whose doing an activation was, from the sentence the server stored with it (skill-steer.ts reasonOf, trigger-match.ts). */
export function originOf(reason: string | null | undefined, fromRecipe = false): string | null {
  const r = reason ?? '';
  if (fromRecipe || r.startsWith('From recipe')) return 'recipe';
  if (r.startsWith('Explicit:')) return 'user';
  if (r.startsWith('Spawned for skill')) return 'spawn';
  if (/start guard/i.test(r)) return 'start guard';
  if (/^(Mentioned|Auto-triggered|Matched)\b/.test(r)) return 'trigger';
  if (/picked by the model/i.test(r)) return 'model';
  if (r.startsWith('Always on')) return 'always';
  return null;
}

function guardText(p: { guard?: unknown; point?: unknown; continued?: unknown; skipped?: unknown; failed?: unknown; capped?: unknown; round?: unknown; denied?: unknown; command?: unknown }): { text: string; tone?: 'error' | 'warning' } {
  const head = `${str(p.guard) ?? '?'} @ ${str(p.point) ?? '?'}`;
  const failed = obj(p.failed);
  if (failed) return { text: `${head}: failed ${str(failed.kind) ?? ''}: ${str(failed.message) ?? ''}`, tone: 'error' };
  if (str(p.skipped)) return { text: `${head}: skipped — ${str(p.skipped)}`, tone: 'warning' };
  if (str(p.denied)) return { text: `${head}: denied ${str(p.command) ?? 'the command'} — ${str(p.denied)}`, tone: 'warning' };
  const capped = str(p.capped);
  if (capped) return { text: `${head}: capped — ${capped}`, tone: 'warning' };
  return { text: `${head}: ${p.continued === true ? `continued${typeof p.round === 'number' && p.round ? ` (round ${p.round})` : ''}` : 'passed'}` };
}

function turnEntries(e: TurnEvent, turn: number | null): LogEntry[] {
  const p = e.payload;
  const base = { at: e.at, turn };
  switch (e.type) {
    case 'TurnStarted': {
      const senders = list(p.input).map((i) => str(i.sender) ?? '?');
      return [{ ...base, key: e.id, kind: 'turn', skill: null, origin: null, text: `Turn ${turn} started${senders.length ? ` (input from ${senders.join(', ')})` : ''}` }];
    }
    case 'SkillVerdicts': {
      const active = new Map(list(p.skills).map((s) => [str(s.skill) ?? '', s]));
      const out: LogEntry[] = list(p.verdicts).map((v, i) => {
        const skill = str(v.skill) ?? '?';
        const ref = active.get(skill);
        const reason = str(v.reason) ?? '';
        return { ...base, key: `${e.id}:v${i}`, kind: 'candidate', skill, on: v.on === true, origin: v.on === true ? originOf(reason, ref?.fromRecipe === true) : null, text: reason };
      });
      // An active skill whose body the budget left out of the prompt.
      for (const [skill, ref] of active) {
        if (ref.composed === false) out.push({ ...base, key: `${e.id}:c${skill}`, kind: 'budget', skill, origin: null, text: 'Active, but its body did not fit the budget: left out of this turn\'s prompt.', tone: 'warning' });
      }
      return out;
    }
    case 'PromptComposed': {
      const out: LogEntry[] = [];
      const catalog = obj(p.catalog);
      list(catalog?.cuts).forEach((c, i) => out.push({ ...base, key: `${e.id}:k${i}`, kind: 'budget', skill: str(c.skill), origin: null, text: `Catalog entry cut: ${str(c.cut) ?? '?'}`, tone: 'warning' }));
      const budget = str(p.budget) ?? str(obj(p.budget)?.summary);
      const dropped = typeof p.droppedHistory === 'number' ? p.droppedHistory : 0;
      const parts = [budget, str(catalog?.summary), dropped ? `${dropped} history message${dropped === 1 ? '' : 's'} dropped` : null].filter(Boolean);
      if (parts.length) out.push({ ...base, key: e.id, kind: 'budget', skill: null, origin: null, text: parts.join(' · ') });
      return out;
    }
    case 'GuardRan': {
      const { text, tone } = guardText(p);
      return [{ ...base, key: e.id, kind: 'guard', skill: null, origin: 'guard', text, tone }];
    }
    case 'TurnFinished': {
      const open = obj(p.openSkills);
      const out: LogEntry[] = [
        ...names(open?.opened).map((skill): LogEntry => ({ ...base, key: `${e.id}:o${skill}`, kind: 'model', skill, origin: 'model', text: 'Opened by the model (picked from the catalog).' })),
        ...names(open?.closed).map((skill): LogEntry => ({ ...base, key: `${e.id}:x${skill}`, kind: 'model', skill, origin: 'model', text: 'Closed.' })),
      ];
      out.push({ ...base, key: e.id, kind: 'turn', skill: null, origin: null, text: `Turn ${turn} finished${str(p.finishReason) ? ` (${str(p.finishReason)})` : ''}` });
      return out;
    }
    case 'TurnFailed':
      return [{ ...base, key: e.id, kind: 'turn', skill: null, origin: null, text: `Turn ${turn} failed: ${str(p.message) ?? str(p.code) ?? ''}`, tone: 'error' }];
    default:
      return [];
  }
}

function processEntry(e: ProcessLogEvent, turn: number | null): LogEntry | null {
  const base = { key: `p${e.id}`, at: e.at, turn, skill: e.skill ?? null };
  switch (e.type) {
    case 'SKILL_ACTIVATED':
      return { ...base, kind: 'activated', origin: originOf(e.reason, e.fromRecipe), text: `${e.reason ?? ''}${e.oneShot ? ' (once)' : ''}` };
    case 'SKILL_REFUSED':
      return { ...base, kind: 'refused', origin: originOf(e.reason), text: `${e.code ?? 'REFUSED'}: ${e.reason ?? ''}`, tone: 'warning' };
    case 'SKILL_CLEARED':
      return { ...base, kind: 'cleared', origin: originOf(e.reason), text: e.reason ?? '' };
    case 'COMMAND_RAN':
      return { ...base, kind: 'command', origin: 'command', text: `${e.phase ? `${e.phase.toLowerCase()}: ` : ''}${e.command ?? ''} — ${e.detail ?? ''}` };
    case 'COMMAND_FAILED':
      return { ...base, kind: 'command', origin: 'command', text: `${e.phase ? `${e.phase.toLowerCase()}: ` : ''}${e.command ?? ''} failed — ${e.error ?? ''}`, tone: 'error' };
    case 'GUARD_RAN': {
      const { text, tone } = guardText(e);
      return { ...base, skill: null, kind: 'guard', origin: 'guard', text, tone };
    }
    case 'CHILD_SPAWNED':
      return { ...base, kind: 'spawned', origin: 'spawn', text: `Spawned worker ${e.childName ?? ''}` };
    default:
      return null;
  }
}

/** Both logs merged in time order (ids are per table), each row numbered with the turn it belongs to. */
export function activationEntries(turnEvents: readonly TurnEvent[], processEvents: readonly ProcessLogEvent[]): LogEntry[] {
  type Item = { at: number; seq: number; turn?: TurnEvent; proc?: ProcessLogEvent };
  const items: Item[] = [
    ...turnEvents.map((e, seq) => ({ at: Date.parse(e.at), seq, turn: e })),
    ...processEvents.map((e, seq) => ({ at: Date.parse(e.at), seq: seq + turnEvents.length, proc: e })),
  ];
  // Stable: a turn's own events keep their order; a process event lands where its time puts it.
  items.sort((a, b) => a.at - b.at || (a.turn && b.turn ? a.seq - b.seq : a.proc && b.proc ? a.seq - b.seq : 0));
  const out: LogEntry[] = [];
  const numbers = new Map<string, number>();
  let current: number | null = null;
  for (const item of items) {
    if (item.turn) {
      if (!numbers.has(item.turn.turnId)) numbers.set(item.turn.turnId, numbers.size + 1);
      const n = numbers.get(item.turn.turnId)!;
      current = item.turn.type === 'TurnFinished' || item.turn.type === 'TurnFailed' ? null : n;
      out.push(...turnEntries(item.turn, n));
    } else if (item.proc) {
      const entry = processEntry(item.proc, current);
      if (entry) out.push(entry);
    }
  }
  return out;
}
