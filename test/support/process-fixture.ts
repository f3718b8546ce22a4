/** A plain process for store tests: no recipe, no skills, the ford engine, in the given session. */
import type { Process } from '../../api/src/domain/processes/process';
import type { ProcessStore } from '../../api/src/domain/processes/process-store';

export interface ProcessPlace {
  readonly tenantId: string;
  readonly projectId: string;
  readonly sessionId: string;
  readonly userId: string;
}

export function createPlainProcess(store: Pick<ProcessStore, 'createProcess'>, place: ProcessPlace, name = 'w'): Promise<Process> {
  return store.createProcess({
    ...place, name, parentProcessId: null, engine: 'ford',
    recipeName: null, recipeSource: null, connectionProfile: null, activeSkills: [], allowedSkillsOverride: null, locked: false,
    engineParams: {}, promptOverride: null, profileAppend: null, promptMode: 'APPEND', dataRelayCorrectionOverride: null,
    toolAdjustments: { add: [], remove: [], keep: [], dropFirst: [], defer: [] }, guards: [], recipeGuards: [],
  });
}
