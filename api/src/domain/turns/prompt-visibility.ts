/**
 * What of a turn's composition someone other than the process owner sees (issue 5: "full text only
 * to those allowed to read the recipe"; issue 13 part 7; processes/owner-view.ts rule 3). Everyone
 * who can see a process can read its project and tenant layers; only the owner reads the owner's
 * USER layer (seed 000 §14). The composer records what the USER layer contributed (`TurnPrivacy`):
 * the prompt text when the recipe, an active skill or a composed skill came from it, and the names
 * of its skills and their script tools. composeTurnPreview and the turn events (PromptComposed,
 * SkillVerdicts, TurnFinished carry the record) are redacted for others by the same rules here.
 */
import { PendingOpenSkills } from '../activation';
import type { Principal } from '../identity/principal';
import { isOwner, isPrivateRef } from '../processes/owner-view';
import type { Process } from '../processes/process';
import type { ServerTool } from '../tools/server-tool';
import type { TurnEvent } from './turn';
import type { TurnComposition } from './turn-composer';

export interface TurnPrivacy {
  /** The prompt text uses the USER layer: withheld. */
  readonly prompt: boolean;
  /** Skills of the USER layer among the candidates (and private active ones): no verdict, no catalog entry, not listed open. */
  readonly skills: readonly string[];
  /** Their script tools: not listed. */
  readonly tools: readonly string[];
  /** open_skill's catalog lists a private skill: its summary is withheld. */
  readonly catalog: boolean;
}

export const HIDDEN_PROMPT_TEXT = "(hidden: this prompt uses the owner's private USER layer)";
export const HIDDEN_CATALOG_SUMMARY = "(hidden: the catalog includes skills of the owner's private USER layer)";

export function turnPrivacy(
  process: Process, candidates: readonly { readonly name: string; readonly source: string }[], composed: readonly string[],
  scriptTools: readonly ServerTool[], pickable: readonly { readonly name: string }[],
): TurnPrivacy {
  const names = new Set([
    ...candidates.filter((s) => s.source === 'USER').map((s) => s.name),
    ...process.activeSkills.filter((r) => isPrivateRef(process, r)).map((r) => r.name),
  ]);
  const tools = scriptTools.filter((t) => t.labels.some((l) => l.startsWith('skill:') && names.has(l.slice('skill:'.length)))).map((t) => t.name);
  return {
    prompt: process.recipeSource === 'USER' || composed.some((n) => names.has(n)) || process.activeSkills.some((r) => isPrivateRef(process, r)),
    skills: [...names].sort(),
    tools,
    catalog: pickable.some((s) => names.has(s.name)),
  };
}

/** Turn events stored before the composer recorded its privacy: the old rule from the process alone. */
function legacyPrivacy(process: Process): TurnPrivacy {
  const prompt = process.recipeSource === 'USER' || process.activeSkills.some((r) => isPrivateRef(process, r));
  return { prompt, skills: process.activeSkills.filter((r) => isPrivateRef(process, r)).map((r) => r.name), tools: [], catalog: prompt };
}

/** composeTurnPreview as `principal` may see it. */
export function compositionFor(principal: Principal, process: Process, c: TurnComposition): TurnComposition {
  if (isOwner(principal, process)) return c;
  const hiddenSkill = new Set(c.privacy.skills);
  const hiddenTool = new Set(c.privacy.tools);
  const tools = (names: readonly string[]) => names.filter((n) => !hiddenTool.has(n));
  return {
    ...c,
    sections: c.privacy.prompt ? c.sections.map((s) => ({ ...s, text: HIDDEN_PROMPT_TEXT })) : c.sections,
    system: c.privacy.prompt ? c.system.map((m) => ({ ...m, content: HIDDEN_PROMPT_TEXT })) : c.system,
    renderContext: c.privacy.prompt ? { ...c.renderContext, profileAppend: HIDDEN_PROMPT_TEXT } : c.renderContext,
    pool: {
      ...c.pool, primary: tools(c.pool.primary), deferred: tools(c.pool.deferred), allowed: tools(c.pool.allowed),
      details: c.pool.details.filter((t) => !hiddenTool.has(t.name)),
      // A private skill's `tools:` entries would name what it asks for: skills' unresolved entries are withheld then.
      ...(c.privacy.skills.length > 0 ? withoutSkillEntries(c.pool.unresolvedTools) : {}),
    },
    tools: c.tools.filter((t) => !hiddenTool.has(t.name)),
    request: {
      ...c.request,
      // The composed system messages are the prompt; the history after them is the transcript, read as said.
      messages: c.privacy.prompt ? c.request.messages.map((m, i) => (i < c.request.systemMessages ? { role: 'system' as const, content: HIDDEN_PROMPT_TEXT } : m)) : c.request.messages,
      tools: c.request.tools.filter((t) => !hiddenTool.has(t.name)),
    },
    composedSkills: c.composedSkills.filter((n) => !hiddenSkill.has(n)),
    warnings: c.warnings.filter((w) => !hiddenSkill.has(w.skill)),
    verdicts: c.verdicts.filter((v) => !hiddenSkill.has(v.skill) && v.source !== 'USER'),
    openSkills: new PendingOpenSkills([...c.openSkills.open].filter((n) => !hiddenSkill.has(n))),
    catalog: c.catalog && c.privacy.catalog
      ? { ...c.catalog, text: HIDDEN_CATALOG_SUMMARY, summary: HIDDEN_CATALOG_SUMMARY, cuts: c.catalog.cuts.filter((cut) => !hiddenSkill.has(cut.skill)) }
      : c.catalog,
  };
}

/**
 * turnEventFor with one object per event and view, for the live streams: subscribers with the same
 * view get the same object, and with it one shared GraphQL result (graphql/shared-subscription-results.ts).
 * The view is keyed by all that turnEventFor reads besides the event: whether the viewer is the
 * owner, and the process's legacy privacy when the event carries no record of its own.
 */
export function sharedTurnEventFor(principal: Principal, process: Process, event: TurnEvent): TurnEvent {
  if (isOwner(principal, process)) return event;
  const recorded = (event.payload as { private?: TurnPrivacy } | null)?.private;
  const key = recorded ? 'recorded' : JSON.stringify(legacyPrivacy(process));
  let byView = sharedViews.get(event);
  if (byView === undefined) sharedViews.set(event, (byView = new Map()));
  let view = byView.get(key);
  if (view === undefined) byView.set(key, (view = turnEventFor(principal, process, event)));
  return view;
}

const sharedViews = new WeakMap<TurnEvent, Map<string, TurnEvent>>();

/**
 * A turn event as `principal` may see it; the privacy record itself goes to the owner only.
 * It reads the viewer only through isOwner and the process only through legacyPrivacy:
 * sharedTurnEventFor keys its views by exactly these.
 */
export function turnEventFor(principal: Principal, process: Process, event: TurnEvent): TurnEvent {
  if (isOwner(principal, process)) return event;
  const { private: recorded, ...payload } = event.payload as Record<string, unknown> & { private?: TurnPrivacy };
  const privacy = recorded ?? legacyPrivacy(process);
  const hidden = new Set(privacy.skills);
  const visibleSkill = (name: unknown) => typeof name !== 'string' || !hidden.has(name);
  const names = (list: unknown) => (Array.isArray(list) ? list.filter(visibleSkill) : list);
  const hiddenTool = new Set(privacy.tools);
  const tools = (list: unknown) => (Array.isArray(list) ? list.filter((n) => typeof n !== 'string' || !hiddenTool.has(n)) : list);
  const bySkill = (list: unknown) => (Array.isArray(list) ? list.filter((x) => visibleSkill((x as { skill?: unknown } | null)?.skill)) : list);
  switch (event.type) {
    case 'PromptComposed': {
      const sections = privacy.prompt
        ? ((payload.sections ?? []) as { kind: string; chars: number }[]).map((s) => ({ kind: s.kind, chars: s.chars, text: null }))
        : payload.sections;
      const catalog = payload.catalog as { summary: string; cuts: unknown[] } | null | undefined;
      const request = payload.request as { system?: unknown[]; tools?: { name?: unknown }[] } | undefined;
      return {
        ...event,
        payload: {
          ...payload, sections, tools: tools(payload.tools), deferredTools: tools(payload.deferredTools),
          ...(request ? { request: {
            ...request,
            system: privacy.prompt && Array.isArray(request.system) ? request.system.map(() => ({ role: 'system', content: HIDDEN_PROMPT_TEXT })) : request.system,
            tools: Array.isArray(request.tools) ? request.tools.filter((t) => typeof t?.name !== 'string' || !hiddenTool.has(t.name)) : request.tools,
          } } : {}),
          ...(Array.isArray(payload.toolDetails) ? { toolDetails: payload.toolDetails.filter((t: { name?: unknown }) => typeof t.name !== 'string' || !hiddenTool.has(t.name)) } : {}),
          ...(Array.isArray(payload.unresolvedTools) && privacy.skills.length > 0
            ? { unresolvedTools: payload.unresolvedTools.filter((u: { field?: unknown }) => u.field !== 'tools') } : {}),
          catalog: catalog && privacy.catalog ? { summary: HIDDEN_CATALOG_SUMMARY, cuts: bySkill(catalog.cuts) } : catalog,
          ...(privacy.prompt ? { redacted: true } : {}),
        },
      };
    }
    case 'SkillVerdicts':
      return {
        ...event,
        payload: {
          ...payload, skills: bySkill(payload.skills), openSkills: names(payload.openSkills), warnings: bySkill(payload.warnings),
          verdicts: Array.isArray(payload.verdicts) ? payload.verdicts.filter((v: { skill?: unknown; source?: unknown }) => visibleSkill(v.skill) && v.source !== 'USER') : payload.verdicts,
        },
      };
    case 'TurnFinished': {
      const open = payload.openSkills as { open?: unknown; opened?: unknown; closed?: unknown } | undefined;
      return { ...event, payload: { ...payload, ...(open ? { openSkills: { open: names(open.open), opened: names(open.opened), closed: names(open.closed) } } : {}) } };
    }
    default:
      return recorded ? { ...event, payload } : event;
  }
}

function withoutSkillEntries(unresolved: TurnComposition['pool']['unresolvedTools']): Pick<TurnComposition['pool'], 'unresolved' | 'unresolvedTools'> {
  const unresolvedTools = unresolved.filter((u) => u.field !== 'tools');
  return { unresolvedTools, unresolved: [...new Set(unresolvedTools.map((u) => u.entry))] };
}
