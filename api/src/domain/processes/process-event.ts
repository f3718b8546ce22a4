/**
 * What happens to a process, as subscribers of `processEvents` see it. Every activation, refusal and
 * clear carries a one-sentence reason ("Explicit: /skill code-review.", "Mentioned: review, diff.").
 * `private`: the event is about the owner's USER layer; only the owner receives it (owner-view.ts).
 */
import type { ProcessMode } from './process-mode';

export type ProcessEvent = ProcessEventBody & { readonly private?: boolean };

type ProcessEventBody =
  | { readonly type: 'PROCESS_SPAWNED'; readonly name: string; readonly recipe: string | null; readonly engine: string }
  | { readonly type: 'SKILL_ACTIVATED'; readonly skill: string; readonly oneShot: boolean; readonly fromRecipe: boolean; readonly args: string | null; readonly reason: string }
  | { readonly type: 'SKILL_CLEARED'; readonly skill: string; readonly reason: string }
  | { readonly type: 'SKILL_REFUSED'; readonly skill: string; readonly code: string; readonly reason: string }
  | { readonly type: 'MESSAGE_QUEUED'; readonly messageId: string; readonly sender: string; readonly senderName: string; readonly preview: string }
  | { readonly type: 'TURN_SCHEDULED'; readonly reason: string }
  | { readonly type: 'CHILD_SPAWNED'; readonly childId: string; readonly childName: string; readonly skill: string }
  | ({ readonly type: 'COMMAND_RAN'; readonly detail: string } & CommandStep)
  | ({ readonly type: 'COMMAND_FAILED'; readonly error: string; readonly code?: string } & CommandStep)
  | { readonly type: 'MODE_SET'; readonly mode: ProcessMode; readonly previous: ProcessMode; readonly by: string }
  | {
      readonly type: 'GUARD_RAN'; readonly guard: string; readonly point: string; readonly continued: boolean;
      readonly skipped: string | null; readonly failed: { readonly kind: string; readonly message: string } | null;
      /** A command guard (seed 004 §1): the command it judged at dispatch, and its refusal. */
      readonly command?: string; readonly denied?: string | null;
    };

/**
 * One step of a skill's `activate:` / `deactivate:` list as its COMMAND_RAN / COMMAND_FAILED event
 * tells it, or a command run directly (engineCommand: skill and phase null). `command` is the short
 * form (first line, 60 characters); `text`, `verb` and `args` are the step in full. Events stored
 * before issue 16 have only `command` and `verb`.
 */
export interface CommandStep {
  readonly command: string;
  readonly verb: string;
  readonly skill?: string | null;
  readonly phase?: 'ACTIVATE' | 'DEACTIVATE' | null;
  /** 0-based, as `activate[i]` in the save diagnostics. */
  readonly index?: number;
  readonly text?: string;
  /** What follows the verb, in full; null when the step did not parse. */
  readonly args?: string | null;
}

export type ProcessEventType = ProcessEvent['type'];

/**
 * On the bus: which process, when, what. `id` (a bigint identity as a decimal string, increasing)
 * is the stored event's, what a subscriber resumes after (issue 14). `event` is left out when too
 * large for a notification; subscribers load it by id.
 */
export interface ProcessEventEnvelope {
  readonly id: string;
  readonly tenantId: string;
  readonly processId: string;
  readonly at: string;
  readonly event?: ProcessEvent;
}

/** A process event as stored (`process_events`). */
export interface StoredProcessEvent extends ProcessEventEnvelope {
  readonly event: ProcessEvent;
}

export const PROCESS_EVENTS_TOPIC = 'process_events';
