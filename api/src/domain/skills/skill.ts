/**
 * The skill as a domain object: what `parseSkill` makes of one `_vance/skills/<name>/SKILL.md`
 * (seed 000 §2, §13; seed 002). Readonly data, no behaviour beyond the invocation predicates in
 * invocation-policy.ts; resolution across layers lives in skill-resolver.ts, matching and prompt
 * composition elsewhere.
 */
import type { TriggerRegex } from './trigger-regex';

/** Activation lifespan (seed 000 §2a). The `--once` flag is orthogonal and not part of the skill. */
export const LIFECYCLES = ['sticky', 'shot'] as const;
export type Lifecycle = (typeof LIFECYCLES)[number];

/** A 1-based position in the SKILL.md file (not in the frontmatter), for diagnostics and editors. */
export interface SourceLocation {
  readonly line: number;
  readonly column: number;
}

export const TRIGGER_TYPES = ['PATTERN', 'KEYWORDS'] as const;
export type SkillTriggerType = (typeof TRIGGER_TYPES)[number];

/**
 * Auto-activation conditions (seed 000 §2, §4a). PATTERN keeps the author's Java-flavoured source and
 * the compiled RE2 regex (case-insensitive, see java-regex.ts and trigger-regex.ts), so the hot path
 * never recompiles and a match costs time linear in the text (issue 13).
 */
export type SkillTrigger =
  | {
      readonly type: 'PATTERN';
      readonly pattern: string;
      readonly regex: TriggerRegex;
      /** Only on a lorebook-style `/…/i` entry: case-insensitive even under `caseSensitive: true`. */
      readonly ignoreCase?: true;
    }
  | {
      readonly type: 'KEYWORDS';
      /** As written (trimmed); distinct case-insensitively. */
      readonly keywords: readonly string[];
      /** DESIGN §10: null = `ceil(n / 2)` of the n distinct keywords. */
      readonly minMatch: number | null;
    };

export const ARGUMENT_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array'] as const;
export type SkillArgumentType = (typeof ARGUMENT_TYPES)[number];

/** One schema for `arguments:` entries and `scripts[].params` (seed 000 §2b, §13.7). */
export interface SkillArgument {
  readonly name: string;
  readonly type: SkillArgumentType;
  readonly description: string | null;
  readonly required: boolean;
}

/**
 * Whether `/skill <name> <rest>` consumes the rest of the line (seed 000 §2b):
 * NONE (missing or `false`: the rest becomes a user message), RAW (`true`: `args.text`/`args.words`),
 * NAMED (a list: the raw view plus `args.<name>`).
 */
export type SkillArguments =
  | { readonly mode: 'NONE' }
  | { readonly mode: 'RAW' }
  | { readonly mode: 'NAMED'; readonly list: readonly SkillArgument[] };

export const REFERENCE_LOAD_MODES = ['INLINE', 'ON_DEMAND'] as const;
export type ReferenceLoadMode = (typeof REFERENCE_LOAD_MODES)[number];

/** A sibling file of the SKILL.md (seed 000 §2); read from the SKILL.md's own layer only. */
export interface SkillReferenceDoc {
  readonly title: string;
  /** Relative to the skill folder, normalised (`references/checklist.md`). */
  readonly file: string;
  readonly summary: string | null;
  readonly loadMode: ReferenceLoadMode;
  /** Where `file:` is written, so a missing file can be reported there. */
  readonly location: SourceLocation;
}

/** Where the activation takes effect (seed 000 §2c). */
export type SkillRun =
  | { readonly target: 'inline' }
  | { readonly target: 'spawn'; readonly recipe: string; readonly inherit: string };

export const SCRIPT_TARGETS = ['BRAIN', 'FOOT'] as const;
export type ScriptTarget = (typeof SCRIPT_TARGETS)[number];

/** A skill script (seed 000 §13): stored and validated in phase 1, not executed. */
export interface SkillScript {
  readonly name: string;
  readonly target: ScriptTarget;
  /** Relative to the skill folder, normalised (`scripts/fetch-diff.js`). */
  readonly file: string;
  readonly description: string | null;
  /** null = no `params` block: a free-form tool (seed 000 §13.7). */
  readonly params: readonly SkillArgument[] | null;
  readonly location: SourceLocation;
}

/** Seed 002: both fields positive and always present on a parsed skill (defaults true/true). */
export interface InvocationPolicy {
  readonly modelInvocable: boolean;
  readonly userInvocable: boolean;
}

/** When the skill is on (seed 003 "When it is on"); null = the seed-000 behaviour (explicit, recipe, auto-trigger). */
export const WHEN_MODES = ['always', 'mentioned', 'picked'] as const;
export type WhenMode = (typeof WHEN_MODES)[number];

/** How secondary triggers combine with the primary ones (seed 003, the lorebook's selectiveLogic). */
export const SELECTIVE_LOGICS = ['AND ANY', 'AND ALL', 'NOT ANY', 'NOT ALL'] as const;
export type SelectiveLogic = (typeof SELECTIVE_LOGICS)[number];

/**
 * The activation controls of issue 8 (seed 003, lorebook fields). They apply to `mentioned` skills
 * and to seed-000 auto-triggers alike; a skill that writes none of them gets DEFAULT_ACTIVATION,
 * which matches exactly as before (one message, case-insensitive, whole-word keywords).
 */
export interface SkillActivation {
  readonly when: WhenMode | null;
  /** Keywords (`KEYWORDS` with one keyword) or regexes; each one is met when it fires on its own. */
  readonly secondaryTriggers: readonly SkillTrigger[];
  readonly selectiveLogic: SelectiveLogic;
  readonly caseSensitive: boolean;
  /**
   * true (default): keywords are whole tokens (DESIGN §10 tokenisation, today's KEYWORDS semantics);
   * false: a keyword matches anywhere as a substring (lorebook). Regex triggers ignore it.
   */
  readonly matchWholeWords: boolean;
  /** The newest N messages are scanned, the one being answered included; 0 never matches. */
  readonly scanDepth: number;
  /** Kept, not used (seed 003). */
  readonly frequency: number | null;
  /** Kept, not used (seed 003). */
  readonly probability: number | null;
  /** For `picked` skills: an open one closes on a turn its triggers no longer match. */
  readonly closeWhenUnmentioned: boolean;
}

export const DEFAULT_ACTIVATION: SkillActivation = Object.freeze({
  when: null,
  secondaryTriggers: Object.freeze([]) as readonly SkillTrigger[],
  selectiveLogic: 'AND ANY',
  caseSensitive: false,
  matchWholeWords: true,
  scanDepth: 1,
  frequency: null,
  probability: null,
  closeWhenUnmentioned: false,
});

export interface Skill {
  /** The folder name; never taken from a `name:` field (seed 000 §2). */
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** null only for a Claude-style skill without `version:`. */
  readonly version: string | null;
  readonly triggers: readonly SkillTrigger[];
  /** `when` and the trigger controls (issue 8); DEFAULT_ACTIVATION when none is written. */
  readonly activation: SkillActivation;
  readonly tools: readonly string[];
  /** Normalised folder paths; a trailing `/` is kept as written. */
  readonly manualPaths: readonly string[];
  readonly referenceDocs: readonly SkillReferenceDoc[];
  readonly tags: readonly string[];
  readonly enabled: boolean;
  readonly lifecycle: Lifecycle;
  readonly run: SkillRun;
  readonly arguments: SkillArguments;
  readonly activate: readonly string[];
  readonly deactivate: readonly string[];
  /** The turn prompt template; null when missing or blank (seed 000 §2a). */
  readonly action: string | null;
  readonly scripts: readonly SkillScript[];
  readonly invocation: InvocationPolicy;
  /** The Markdown body (a template), without leading blank lines and trailing whitespace. */
  readonly promptExtension: string;
  /** The file line on which `promptExtension` starts, to map template errors at render time. */
  readonly bodyLine: number;
  /** Recognised Claude/Agent Skills keys without a Vance meaning (`license`, `allowed-tools`, …), as written. */
  readonly extra: Readonly<Record<string, unknown>>;
}
