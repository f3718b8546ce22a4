import { isMap, isScalar, isSeq, visit } from 'yaml';
import type { Diagnostic } from '../errors';
import { YamlSource } from '../shared/yaml-source';
import type { TemplateEngine } from '../templates/template-engine';
import type { BacktrackingAnalyser } from './backtracking-analyser';
import type { ToolDescriptor } from '../tools/tool-descriptor';
import { unresolvedToolProblem } from '../tools/unresolved-tools';
import { FrontmatterReader } from './frontmatter-reader';
import { readInvocationPolicy } from './invocation-policy';
import { ALL_TOP_LEVEL_KEYS, CLAUDE_EXTRA_KEYS } from './known-keys';
import { checkActivation, readActivation } from './parse-activation';
import { readArguments } from './parse-arguments';
import { readCommands } from './parse-commands';
import { readReferenceDocs } from './parse-reference-docs';
import { readRun } from './parse-run';
import { readScripts } from './parse-scripts';
import { readTriggers } from './parse-triggers';
import { LIFECYCLES, type Skill } from './skill';
import { sanitizeManualPath, skillNameProblem } from './skill-paths';
import { checkSkillRules } from './skill-rules';
import { splitFrontmatter } from './split-frontmatter';
import { checkActionTemplate, checkArgsWithoutArguments, checkBodyTemplate } from './template-check';

/**
 * SKILL.md → Skill (seed 000 §2, §2a–§2c, §9, §13; seed 002). Never throws on bad input: every
 * problem is a located diagnostic, and `skill` is null exactly when there is an ERROR.
 *
 * Two styles load (DESIGN §1 and the Claude-compatible corpus):
 * - Vance style (no `name:` key): `title`, `description` and `version` are required — errors (seed 000 §2).
 * - Claude style (a `name:` key, the Agent Skills format): `description` is required; a missing
 *   `title` (defaults to the name) or `version` (stays null) is one WARNING, not an error.
 * The skill's name is always the folder name (seed 000 §2). A `name:` that differs is a WARNING, not
 * an error: the folder decides, nothing is ambiguous, and real Agent Skills ship such files (a copied
 * template whose `name:` was never updated) that must still load.
 */
export interface SkillSource {
  /** The folder name under `_vance/skills/`. */
  readonly name: string;
  /** The document path, for diagnostics. */
  readonly path: string;
  readonly content: string;
}

export interface ParsedSkill {
  readonly skill: Skill | null;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * What only validation checks (putDocument, validateDocument, `vance lint`); loading a skill for a
 * turn passes none, so a stored skill behaves as it did when it was saved (a force-saved one with a
 * failing `activate:` step is refused at activation, as before). Given at all, the `activate:` /
 * `deactivate:` entries are dry-run (parse-commands.ts, issue 15).
 */
export interface SkillSaveChecks {
  /** Advice on trigger patterns that would backtrack on other engines (backtracking-analyser.ts). */
  readonly analyser?: BacktrackingAnalyser;
  /** The catalog `tools:` entries must select from; a warning per entry that selects nothing (issue 15). */
  readonly tools?: readonly ToolDescriptor[];
}

/** `templates` checks the body and `action:` (skipped without it); `save`: see SkillSaveChecks. */
export function parseSkill(input: SkillSource, templates?: TemplateEngine, save?: SkillSaveChecks): ParsedSkill {
  let result: ParsedSkill;
  try {
    result = parse(input, templates, save);
  } catch (error) {
    // A bug here must not take a listing down; it surfaces as a diagnostic on this one file.
    const message = `Internal error while reading this skill: ${(error as Error).message}`;
    result = { skill: null, diagnostics: [{ severity: 'ERROR', message, path: input.path, line: 1, column: 1, field: 'frontmatter' }] };
  }
  return { skill: result.skill, diagnostics: sortByPosition(result.diagnostics) };
}

function parse(input: SkillSource, templates: TemplateEngine | undefined, save: SkillSaveChecks | undefined): ParsedSkill {
  const { path } = input;
  const diagnostics: Diagnostic[] = [];
  const nameProblem = skillNameProblem(input.name);
  if (nameProblem) {
    diagnostics.push({ severity: 'ERROR', message: `The folder name '${input.name}' cannot be a skill name: ${nameProblem}.`, path, line: 1, column: 1, field: 'name' });
  }

  const { split, diagnostics: structural } = splitFrontmatter(input.content, path);
  diagnostics.push(...structural);
  if (!split) return { skill: null, diagnostics };

  const source = new YamlSource(split.yaml, split.frontmatterLine - 1);
  if (source.errors.length > 0) {
    // Errors found at the end of the input (an unclosed `[`) would point at the closing fence; keep them inside.
    const lastLine = split.frontmatterLine + split.yaml.split('\n').length - 2;
    for (const e of source.errors) {
      // The parser's message repeats a position relative to the frontmatter; ours is the file position.
      const message = `YAML syntax error in the frontmatter: ${e.message.replace(/ at line \d+, column \d+:?\s*$/, '')}`;
      diagnostics.push({ severity: 'ERROR', message, path, line: Math.min(e.line, lastLine), column: e.column, field: 'frontmatter' });
    }
    return { skill: null, diagnostics };
  }
  const contents = source.document.contents;
  if (!isMap(contents)) {
    const found = isSeq(contents) ? 'a list' : 'a single value';
    const { line, column } = source.locate([]);
    diagnostics.push({ severity: 'ERROR', message: `The frontmatter must be a map of \`key: value\` fields, found ${found}.`, path, line, column, field: 'frontmatter' });
    return { skill: null, diagnostics };
  }

  const complexKey = firstComplexKey(source, split.frontmatterLine);
  if (complexKey) {
    diagnostics.push({ severity: 'ERROR', message: 'Map keys must be plain words; a list or map used as a key is not supported.', path, ...complexKey, field: 'frontmatter' });
    return { skill: null, diagnostics };
  }

  const reader = new FrontmatterReader(source, path);
  const skill = readSkill(reader, input.name, source.toJS() as Record<string, unknown>, split.body, split.bodyStartLine, save);
  diagnostics.push(...reader.diagnostics);
  if (templates && skill) {
    diagnostics.push(...checkBodyTemplate(templates, skill.promptExtension, skill.bodyLine, path));
    if (skill.action !== null) diagnostics.push(...checkActionTemplate(templates, reader, skill.action));
    diagnostics.push(...checkArgsWithoutArguments(templates, reader, skill));
  }
  const failed = diagnostics.some((d) => d.severity === 'ERROR');
  return { skill: failed ? null : skill, diagnostics };
}

function readSkill(
  reader: FrontmatterReader, name: string, fm: Record<string, unknown>, rawBody: string, bodyStartLine: number,
  save: SkillSaveChecks | undefined,
): Skill | null {
  const analyser = save?.analyser;
  // A `name:` key marks the Agent Skills (Claude) format, where title and version are optional.
  const style: Style = 'name' in fm ? 'CLAUDE' : 'VANCE';
  if (style === 'CLAUDE') checkNameField(reader, name, fm.name);
  const description = reader.requiredText(['description'], fm.description, 'ERROR', 'One line: what the skill does and when to use it.');
  const identity = readTitleAndVersion(reader, style, name, fm);
  const invocation = readInvocationPolicy(reader, fm);
  warnUnknownKeys(reader, fm, invocation.handledKeys);

  const run = readRun(reader, fm.run);
  const action = reader.text(['action'], fm.action)?.trimEnd() || null;
  const body = splitBody(rawBody, bodyStartLine);
  const activation = readActivation(reader, fm, analyser);
  const draft = {
    triggers: readTriggers(reader, fm.triggers, { matchWholeWords: activation.matchWholeWords, caseSensitive: activation.caseSensitive, ...(analyser ? { analyser } : {}) }),
    activation,
    tools: readSkillTools(reader, fm.tools, save?.tools),
    manualPaths: readManualPaths(reader, fm.manualPaths),
    referenceDocs: readReferenceDocs(reader, fm.referenceDocs),
    tags: reader.stringList(['tags'], fm.tags),
    enabled: reader.booleanish(['enabled'], fm.enabled, true),
    lifecycle: reader.choice(['lifecycle'], fm.lifecycle, LIFECYCLES, 'sticky'),
    arguments: readArguments(reader, fm.arguments),
    activate: readCommands(reader, ['activate'], fm.activate, save !== undefined),
    deactivate: readCommands(reader, ['deactivate'], fm.deactivate, save !== undefined),
    scripts: readScripts(reader, fm.scripts),
    action,
    invocation: invocation.policy,
    promptExtension: body.text,
    bodyLine: body.line,
  };
  if (draft.lifecycle === undefined || run === undefined) return null;
  const lifecycle = draft.lifecycle;
  checkSkillRules(reader, { ...draft, lifecycle, run: run.run, spawnRequested: run.spawnRequested });
  checkActivation(reader, activation, draft.triggers, fm);
  if (description === undefined || identity === undefined) return null;
  return { name, ...identity, description, ...draft, lifecycle, run: run.run, extra: extraKeys(fm) };
}

/** A list or map used as a key (`? [a]`), which has no JavaScript object form; its file position. */
function firstComplexKey(source: YamlSource, frontmatterLine: number): { line: number; column: number } | undefined {
  let offset: number | undefined;
  visit(source.document, {
    Pair(_, pair) {
      const key = pair.key as { range?: [number, number, number] } | null;
      if (key !== null && !isScalar(key)) {
        offset = key.range?.[0] ?? 0;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  if (offset === undefined) return undefined;
  const before = source.text.slice(0, offset);
  return { line: frontmatterLine + (before.match(/\n/g)?.length ?? 0), column: offset - before.lastIndexOf('\n') };
}

function checkNameField(reader: FrontmatterReader, folder: string, value: unknown): void {
  const written = reader.text(['name'], value)?.trim();
  if (written === undefined || written === folder) return;
  reader.warning(
    ['name'],
    written === ''
      ? `\`name\` is empty; the skill is named after its folder '${folder}'. Write \`name: ${folder}\` or remove the key.`
      : `\`name: ${written}\` does not match the folder '${folder}'; the folder name is the skill's name. Rename the folder or write \`name: ${folder}\`.`,
  );
}

type Style = 'VANCE' | 'CLAUDE';

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

function readTitleAndVersion(reader: FrontmatterReader, style: Style, name: string, fm: Record<string, unknown>): { title: string; version: string | null } | undefined {
  if (style === 'VANCE') {
    const title = reader.requiredText(['title'], fm.title, 'ERROR', 'The display name in the skill picker (a Claude-style skill with `name:` may omit it).');
    const version = reader.requiredText(['version'], fm.version, 'ERROR', 'A semantic version such as `1.0.0`.');
    if (version !== undefined) checkSemver(reader, version);
    return title === undefined || version === undefined ? undefined : { title, version };
  }
  const title = reader.optionalText(['title'], fm.title);
  const version = reader.optionalText(['version'], fm.version);
  if (version !== null) checkSemver(reader, version);
  const missing = [title === null ? 'title' : null, version === null ? 'version' : null].filter((f): f is string => f !== null);
  if (missing.length > 0) {
    const what = missing.map((f) => `\`${f}\``).join(' and ');
    const defaults = [title === null ? `the title defaults to '${name}'` : null, version === null ? 'the version stays empty' : null].filter(Boolean).join(' and ');
    reader.report('WARNING', [missing[0]!], `Claude-style skill without ${what}: ${defaults}. Add ${what} for the Vance skill picker.`, reader.source.keyPosition(['name']));
  }
  return { title: title ?? name, version };
}

function checkSemver(reader: FrontmatterReader, version: string): void {
  if (SEMVER.test(version)) return;
  // A YAML number (`version: 1.0`) arrives here as written; it is display-only data, so a warning.
  reader.warning(['version'], `\`version: ${version}\` is not a semantic version (MAJOR.MINOR.PATCH, e.g. '1.0.0').`);
}

/** `tools:` entries; with a catalog (save time), each that selects no tool is a warning at its entry (issue 15). */
function readSkillTools(reader: FrontmatterReader, value: unknown, catalog: readonly ToolDescriptor[] | undefined): string[] {
  const entries = reader.stringEntries(['tools'], value);
  for (const entry of catalog ? entries : []) {
    const problem = unresolvedToolProblem(entry.value, catalog!);
    if (problem !== null) reader.warning(entry.at, `${problem.charAt(0).toUpperCase()}${problem.slice(1)}.`);
  }
  return entries.map((entry) => entry.value);
}

function readManualPaths(reader: FrontmatterReader, value: unknown): string[] {
  const paths: string[] = [];
  for (const entry of reader.stringEntries(['manualPaths'], value)) {
    const sanitized = sanitizeManualPath(entry.value);
    if (sanitized.ok) paths.push(sanitized.path);
    else reader.error(entry.at, `Manual path '${entry.value}' is not allowed: ${sanitized.reason}. Give a folder relative to the document root, e.g. \`_vance/manuals/\`.`);
  }
  return paths;
}

function warnUnknownKeys(reader: FrontmatterReader, fm: Record<string, unknown>, handled: readonly string[]): void {
  const rest = Object.fromEntries(Object.entries(fm).filter(([key]) => !handled.includes(key)));
  reader.unknownKeys([], rest, ALL_TOP_LEVEL_KEYS);
}

function extraKeys(fm: Record<string, unknown>): Readonly<Record<string, unknown>> {
  return Object.fromEntries(CLAUDE_EXTRA_KEYS.filter((key) => fm[key] !== undefined).map((key) => [key, fm[key]]));
}

/** The body without leading blank lines and trailing whitespace, and the file line it starts on. */
function splitBody(raw: string, startLine: number): { text: string; line: number } {
  const lines = raw.split('\n');
  let skip = 0;
  while (skip < lines.length && lines[skip]!.trim() === '') skip++;
  return { text: lines.slice(skip).join('\n').trimEnd(), line: startLine + skip };
}

function sortByPosition(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}
