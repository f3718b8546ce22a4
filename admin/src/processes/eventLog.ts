/** Reads a process's stored turn and process events whole, a page at a time (turnEventLog, processEventLog). */
import { gql } from '../api/graphql';
import type { TurnEvent } from '../api/types';
import type { ProcessLogEvent } from './activationEntries';

const PAGE = 1000;
// Aliases where the union's members type a field differently (skill: String! vs String), which one selection may not mix.
const TURN_LOG = `query($id: ID!, $after: ID, $limit: Int) { turnEventLog(processId: $id, afterEventId: $after, limit: $limit) { id processId turnId type payload at } }`;
const PROCESS_LOG = `query($id: ID!, $after: ID, $limit: Int) { processEventLog(processId: $id, afterEventId: $after, limit: $limit) {
  id type at
  ... on SkillActivatedEvent { skill oneShot fromRecipe reason }
  ... on SkillRefusedEvent { skill code reason }
  ... on SkillClearedEvent { skill reason }
  ... on CommandRanEvent { command stepSkill: skill phase detail }
  ... on CommandFailedEvent { command stepSkill: skill phase error }
  ... on GuardRanEvent { guard point continued skipped failed guardCommand: command denied }
  ... on ChildSpawnedEvent { skill childName }
} }`;

async function all<T extends { id: string }>(read: (after: string | null) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (;;) {
    const page = await read(out.at(-1)?.id ?? null);
    out.push(...page);
    if (page.length < PAGE) return out;
  }
}

export async function readEventLog(processId: string): Promise<{ turnEvents: TurnEvent[]; processEvents: ProcessLogEvent[] }> {
  const [turnEvents, processEvents] = await Promise.all([
    all((after) => gql<{ turnEventLog: TurnEvent[] }>(TURN_LOG, { id: processId, after, limit: PAGE }).then((d) => d.turnEventLog)),
    all((after) => gql<{ processEventLog: (ProcessLogEvent & { stepSkill?: string | null; guardCommand?: string | null })[] }>(PROCESS_LOG, { id: processId, after, limit: PAGE })
      .then((d) => d.processEventLog.map(({ stepSkill, guardCommand, ...e }) => ({ ...e, skill: e.skill ?? stepSkill ?? null, command: e.command ?? guardCommand ?? null })))),
  ]);
  return { turnEvents, processEvents };
}
