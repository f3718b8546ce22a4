import type { Process } from '../processes/process';
import type { JsonValue } from '../scripting/script-runner';

/** `vance.context()` (seed 000 §13.4): read-only metadata of the process, the skill and the recipe. */
export function scriptContext(process: Process, extra: { readonly skill?: JsonValue; readonly turnId?: string | null; readonly guard?: JsonValue }): JsonValue {
  return {
    process: {
      id: process.id, name: process.name, engine: process.engine, projectId: process.projectId, sessionId: process.sessionId,
      connectionProfile: process.connectionProfile, parentProcessId: process.parentProcessId,
    },
    recipe: process.recipeName === null ? null : { name: process.recipeName, source: process.recipeSource },
    activeSkills: process.activeSkills.map((s) => s.name),
    skill: extra.skill ?? null,
    guard: extra.guard ?? null,
    turnId: extra.turnId ?? null,
  };
}
