import type { Diagnostic } from '../errors';

/**
 * Splits a SKILL.md into its YAML frontmatter (between `---` fences) and the Markdown body (seed 000
 * §2, §9), keeping file line numbers: the frontmatter's first line number is `frontmatterLine` and
 * the body starts on `bodyStartLine`. Structural problems become located diagnostics here; the YAML
 * itself is parsed by the caller.
 *
 * Decisions: CRLF (and lone CR) line ends are normalised silently — a file saved on Windows must load
 * and line numbers do not change. A UTF-8 byte-order mark is stripped with a WARNING (it loads, but
 * other Agent Skills tools reject it). Blank lines before the opening fence load with a WARNING.
 */
export interface FrontmatterSplit {
  /** The YAML text between the fences, '\n'-terminated lines. */
  readonly yaml: string;
  /** File line of the first frontmatter line (the line after the opening fence). */
  readonly frontmatterLine: number;
  /** The text after the closing fence line, untouched. */
  readonly body: string;
  /** File line on which `body` starts. */
  readonly bodyStartLine: number;
}

export interface SplitResult {
  readonly split: FrontmatterSplit | null;
  readonly diagnostics: readonly Diagnostic[];
}

const FENCE = /^---[ \t]*$/;

export function splitFrontmatter(content: string, path: string): SplitResult {
  const diagnostics: Diagnostic[] = [];
  const at = (severity: Diagnostic['severity'], line: number, message: string): void => {
    diagnostics.push({ severity, message, path, line, column: 1, field: 'frontmatter' });
  };

  let text = content.replace(/\r\n?/g, '\n');
  if (text.startsWith('\uFEFF')) {
    text = text.slice(1);
    at('WARNING', 1, 'The file starts with a UTF-8 byte-order mark (BOM); it was ignored. Save the file as UTF-8 without BOM.');
  }
  const lines = text.split('\n');

  let open = 0;
  while (open < lines.length && lines[open]!.trim() === '') open++;
  if (open === lines.length) {
    at('ERROR', 1, 'The file is empty. A SKILL.md starts with YAML frontmatter between two `---` lines (at least `description:`), followed by the Markdown body.');
    return { split: null, diagnostics };
  }
  if (!FENCE.test(lines[open]!)) {
    at(
      'ERROR',
      open + 1,
      'Missing opening `---` fence: a SKILL.md must start with a line `---`, then the YAML frontmatter, then a closing `---` line, then the Markdown body.',
    );
    return { split: null, diagnostics };
  }
  if (open > 0) at('WARNING', 1, `The opening \`---\` fence is on line ${open + 1}, after blank lines; move it to line 1.`);

  let close = open + 1;
  while (close < lines.length && !FENCE.test(lines[close]!)) close++;
  if (close === lines.length) {
    at('ERROR', open + 1, `Missing closing \`---\` fence: the frontmatter opened on line ${open + 1} never ends. Add a line \`---\` after the last frontmatter field.`);
    return { split: null, diagnostics };
  }

  const yamlLines = lines.slice(open + 1, close);
  if (yamlLines.every((line) => line.trim() === '' || line.trim().startsWith('#'))) {
    at('ERROR', open + 1, 'The frontmatter is empty: add at least `description:` (and `title:` and `version:` for a Vance skill) between the `---` lines.');
    return { split: null, diagnostics };
  }

  return {
    split: {
      yaml: yamlLines.map((line) => `${line}\n`).join(''),
      frontmatterLine: open + 2,
      body: lines.slice(close + 1).join('\n'),
      bodyStartLine: close + 2,
    },
    diagnostics,
  };
}
