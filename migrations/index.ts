/**
 * Every migration, oldest first, as classes (not a glob) so the same list works from TypeScript
 * (vitest, tsx) and from the compiled JavaScript. Append new migrations here.
 */
import { Init1764500000000 } from './1764500000000-Init';
import { Processes1764600000000 } from './1764600000000-Processes';
import { Turns1764700000000 } from './1764700000000-Turns';
import { Sandbox1764800000000 } from './1764800000000-Sandbox';
import { Activation1764900000000 } from './1764900000000-Activation';
import { LaneLeases1765000000000 } from './1765000000000-LaneLeases';
import { CommittedEvents1765100000000 } from './1765100000000-CommittedEvents';
import { ProcessMode1765200000000 } from './1765200000000-ProcessMode';
import { ProcessTitleGoal1765300000000 } from './1765300000000-ProcessTitleGoal';
import { GuardScratch1765400000000 } from './1765400000000-GuardScratch';

export const MIGRATIONS = [Init1764500000000, Processes1764600000000, Turns1764700000000, Sandbox1764800000000, Activation1764900000000, LaneLeases1765000000000, CommittedEvents1765100000000, ProcessMode1765200000000, ProcessTitleGoal1765300000000, GuardScratch1765400000000];
