import { builtinToolDescriptors } from '../domain/tools/builtin/create-builtin-tools';
import { StaticToolCatalog } from '../domain/tools/tool-descriptor';
import { RecheckAnalyser } from '../regex-analysis';
import { NunjucksTemplateEngine } from '../templates';
import { createDocumentValidator } from '../validation/document-validators';
import { formatJson, formatText, lint } from './lint';

/** `vance lint`: the validator `putDocument` uses, set up for an author's own run. */
export async function runLint(roots: readonly string[], json: boolean): Promise<number> {
  // Only syntax checks happen here (no rendering), so the in-process engine is enough.
  const templates = new NunjucksTemplateEngine({ sandbox: 'in-process' });
  // An author's own run: a patient analysis (a second per pattern), no per-minute budget to share.
  const backtracking = new RecheckAnalyser({ timeoutMs: 1_000, budgetMsPerMinute: 60_000 });
  // Tool entries are checked against the built-in catalog: a folder is linted without a server.
  const validator = createDocumentValidator(templates, backtracking, new StaticToolCatalog(builtinToolDescriptors()));
  const report = await lint(roots, validator);
  console.log(json ? formatJson(report) : formatText(report));
  return report.errors > 0 ? 1 : 0;
}
