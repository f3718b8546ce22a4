import { fieldName, type FrontmatterReader, type YamlPath } from './frontmatter-reader';
import { REFERENCE_LOAD_MODES, type SkillReferenceDoc } from './skill';
import { sanitizeSkillFile } from './skill-paths';

/**
 * `referenceDocs:` (seed 000 §2 SkillReferenceDoc): `file` relative to the skill folder (sanitised,
 * required), `title` (the prompt header for INLINE, the lookup key for ON_DEMAND), `summary`
 * (the on-demand teaser), `loadMode` INLINE (default) or ON_DEMAND. The files themselves are read by
 * the resolver, from the SKILL.md's own layer.
 */
const REFERENCE_KEYS = ['title', 'file', 'summary', 'loadMode'];

export function readReferenceDocs(reader: FrontmatterReader, value: unknown): SkillReferenceDoc[] {
  const entries = reader.list(['referenceDocs'], value) ?? [];
  const docs: SkillReferenceDoc[] = [];
  const titles = new Map<string, number>();
  entries.forEach((entry, index) => {
    const at = ['referenceDocs', index];
    const doc = readReferenceDoc(reader, at, entry);
    if (!doc) return;
    const first = titles.get(doc.title.toLowerCase());
    if (first !== undefined) {
      // ON_DEMAND docs are fetched by title (seed 000 §5c); two with one title cannot both be reached.
      reader.warning([...at, 'title'], `Title '${doc.title}' is also used by \`referenceDocs[${first}]\`; give each reference doc its own title.`);
    } else {
      titles.set(doc.title.toLowerCase(), index);
    }
    docs.push(doc);
  });
  return docs;
}

function readReferenceDoc(reader: FrontmatterReader, at: YamlPath, entry: unknown): SkillReferenceDoc | undefined {
  const map = reader.map(at, entry);
  if (!map) return undefined;
  reader.unknownKeys(at, map, REFERENCE_KEYS);
  const fileAt = [...at, 'file'];
  const rawFile = reader.requiredText(fileAt, map.file, 'ERROR', 'Give the path of the file relative to the skill folder, e.g. `references/checklist.md`.');
  const file = rawFile === undefined ? undefined : sanitizeFile(reader, fileAt, rawFile);
  const loadMode = reader.choice([...at, 'loadMode'], map.loadMode, REFERENCE_LOAD_MODES, 'INLINE');
  const summary = reader.optionalText([...at, 'summary'], map.summary);
  let title = reader.optionalText([...at, 'title'], map.title);
  if (file === undefined || loadMode === undefined) return undefined;
  if (title === null) {
    title = file;
    reader.warning(at, `\`${fieldName(at)}\` has no \`title\`; '${file}' is used. Add a title: it heads the document in the prompt${loadMode === 'ON_DEMAND' ? ' and is the key to load it' : ''}.`);
  }
  return { title, file, summary, loadMode, location: reader.location(fileAt) };
}

/** Shared with scripts: a path inside the skill folder, never outside it. */
export function sanitizeFile(reader: FrontmatterReader, at: YamlPath, raw: string): string | undefined {
  const sanitized = sanitizeSkillFile(raw);
  if (sanitized.ok) return sanitized.path;
  reader.error(at, `\`${fieldName(at)}\` '${raw}' is not a path inside the skill folder: ${sanitized.reason}.`);
  return undefined;
}
