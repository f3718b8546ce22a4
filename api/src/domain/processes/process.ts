import type { Layer } from '../cascade/layer';
import type { PromptMode, RecipeGuard } from '../recipes/recipe';
import type { ProcessMode } from './process-mode';
import type { GuardScratchMap } from '../guards/guard-scratch';

/**
 * Sessions and processes (seed 004 §7, seed 000 §5d). A process carries its effective configuration
 * as a snapshot taken at spawn: later recipe edits change nothing for it.
 */
export interface Session {
  readonly id: string;
  readonly tenantId: string;
  readonly projectId: string;
  readonly userId: string;
  readonly name: string;
  readonly createdAt: Date;
}

/** One active skill on a process (seed 000 §5d). */
export interface ActiveSkillRef {
  readonly name: string;
  /** Where it was found at activation; engines re-resolve per turn. */
  readonly resolvedFromScope: Layer;
  /** `--once` or an auto-trigger: cleared after the next turn (seed 000 §2a). */
  readonly oneShot: boolean;
  /** Seeded from recipe.defaultActiveSkills (seed 000 §7a). */
  readonly fromRecipe: boolean;
  readonly activatedAt: string;
  /** The raw rest of the /skill line (seed 000 §2b); bound per turn against the declaration. */
  readonly args: string | null;
  /** How it became active, one sentence ("Explicit: /skill code-review."). */
  readonly reason: string;
}

/** A guard installed at run time by the `guard` command family (executed by the sandbox issue). */
export type RuntimeGuard =
  | { readonly kind: 'SCRIPT'; readonly path: string; readonly installedBy: string | null }
  | { readonly kind: 'INLINE'; readonly body: string; readonly installedBy: string | null };

/** The recipe's tool adjustments, kept unexpanded: `@label` selectors resolve per turn (seed 004 §6.2). */
export interface ToolAdjustments {
  readonly add: readonly string[];
  readonly remove: readonly string[];
  readonly keep: readonly string[];
  readonly dropFirst: readonly string[];
  readonly defer: readonly string[];
}

export type ProcessStatus = 'IDLE' | 'CLOSED' | 'ABANDONED';

export interface Process {
  readonly id: string;
  readonly tenantId: string;
  readonly projectId: string;
  readonly sessionId: string;
  /** The user who spawned it (its owner). */
  readonly userId: string;
  readonly name: string;
  readonly parentProcessId: string | null;
  readonly status: ProcessStatus;
  readonly engine: string;
  readonly recipeName: string | null;
  readonly recipeSource: Layer | null;
  readonly connectionProfile: string | null;
  /** What the process is called for people (a spawn skill's title; process_spawn / spawnProcess `title`). */
  readonly title: string | null;
  /** Its task (a spawn skill's rendered action; process_spawn's goal; spawnProcess `goal`). */
  readonly goal: string | null;
  /** Plan mode for the render context (seed 004 §5.1); NORMAL until setProcessMode. */
  readonly mode: ProcessMode;
  readonly activeSkills: readonly ActiveSkillRef[];
  /** null: no restriction; []: lockdown (seed 000 §7, snapshot). */
  readonly allowedSkillsOverride: readonly string[] | null;
  /** The recipe's `locked` at spawn: recipe skills cannot be cleared (seed 000 §7c). */
  readonly locked: boolean;
  readonly engineParams: Readonly<Record<string, unknown>>;
  /** Recipe promptPrefix (+ profile append), unrendered (seed 004 §5.5). */
  readonly promptOverride: string | null;
  readonly profileAppend: string | null;
  readonly promptMode: PromptMode;
  readonly dataRelayCorrectionOverride: string | null;
  readonly toolAdjustments: ToolAdjustments;
  readonly guards: readonly RuntimeGuard[];
  /** The recipe's `guard:` entries at spawn (seed 004 §6d), run beside the runtime guards. */
  readonly recipeGuards: readonly RecipeGuard[];
  /** Guard rounds used since the last user turn, by guard key (guards/guard-key.ts); reset by a user message. */
  readonly guardRounds: Readonly<Record<string, number>>;
  /** Each guard's loop and session scratch, by guard key (guards/guard-scratch.ts); a user message clears the loops. */
  readonly guardScratch: GuardScratchMap;
  /** The `picked` skills the model has open (issue 8, seed 003), committed when a turn finishes. */
  readonly openSkills: readonly string[];
  /** How often the model opened each skill here (the budgeted catalog shrinks the least-used first). */
  readonly skillUses: Readonly<Record<string, number>>;
  /** Set when a turn has been requested and not yet run (turns come with the next issue). */
  readonly turnRequestedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Who sent a pending message: a user, or the system on behalf of a skill or guard. */
export type MessageSender = 'USER' | 'SKILL' | 'GUARD' | 'PROCESS';

/** A message waiting in the process inbox for the next turn. */
export interface PendingMessage {
  readonly id: string;
  readonly processId: string;
  readonly sender: MessageSender;
  /** The user's login for USER (and for SKILL: whose activation), `_skill` etc. otherwise. */
  readonly senderName: string;
  readonly content: string;
  readonly createdAt: Date;
  /** Turns that failed on it so far (issue 14). */
  readonly attempts: number;
  /** The last failure (`CODE: message`), null when none. */
  readonly failure: string | null;
  /** Set once it failed too often: no turn takes it any more. */
  readonly failedAt: Date | null;
}
