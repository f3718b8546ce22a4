import type { FrontmatterReader, YamlPath } from './frontmatter-reader';
import { readParamList } from './parse-arguments';
import { sanitizeFile } from './parse-reference-docs';
import { SCRIPT_TARGETS, type SkillScript } from './skill';

/**
 * `scripts:` (seed 000 §13.1, §13.7): phase 1 stores and validates them; nothing runs them yet.
 * `name` becomes part of the tool name `skill_<skill>__<script>` (§13.2), so it is a plain word and
 * unique; `file` is a path inside the skill folder; `target` BRAIN (default) or FOOT; `params` uses
 * the argument schema of parse-arguments.ts.
 */
const SCRIPT_KEYS = ['name', 'target', 'file', 'description', 'params'];
const SCRIPT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export function readScripts(reader: FrontmatterReader, value: unknown): SkillScript[] {
  const entries = reader.list(['scripts'], value) ?? [];
  const scripts: SkillScript[] = [];
  const names = new Map<string, number>();
  entries.forEach((entry, index) => {
    const at = ['scripts', index];
    const script = readScript(reader, at, entry);
    if (!script) return;
    const first = names.get(script.name);
    if (first !== undefined) {
      reader.error([...at, 'name'], `Duplicate script name '${script.name}' (also \`scripts[${first}]\`); each script becomes its own tool and needs its own name.`);
      return;
    }
    names.set(script.name, index);
    scripts.push(script);
  });
  return scripts;
}

function readScript(reader: FrontmatterReader, at: YamlPath, entry: unknown): SkillScript | undefined {
  const map = reader.map(at, entry);
  if (!map) return undefined;
  reader.unknownKeys(at, map, SCRIPT_KEYS);
  const name = reader.requiredText([...at, 'name'], map.name);
  if (name !== undefined && !SCRIPT_NAME.test(name)) {
    reader.error([...at, 'name'], `Invalid script name '${name}': use 1–64 characters of letters, digits, '_' and '-' (it becomes part of a tool name).`);
  }
  const target = reader.choice([...at, 'target'], map.target, SCRIPT_TARGETS, 'BRAIN');
  const rawFile = reader.requiredText([...at, 'file'], map.file, 'ERROR', 'Give the script file relative to the skill folder, e.g. `scripts/fetch-diff.js`.');
  const file = rawFile === undefined ? undefined : sanitizeFile(reader, [...at, 'file'], rawFile);
  const description = reader.optionalText([...at, 'description'], map.description);
  const paramEntries = map.params === undefined || map.params === null ? undefined : reader.list([...at, 'params'], map.params);
  const params = paramEntries === undefined ? null : readParamList(reader, [...at, 'params'], paramEntries, { reserved: false });
  if (name === undefined || !SCRIPT_NAME.test(name) || target === undefined || file === undefined) return undefined;
  return { name, target, file, description, params, location: reader.location([...at, 'file']) };
}
