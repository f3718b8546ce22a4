/**
 * The worker side of the validation pool (validation-pool.ts): the same validator the CLI runs, with
 * its own template checker (compile only, in-process: nothing is rendered here) and its own ReDoS
 * analyser, both configured like the server's; and the loaders' parses of large documents.
 */
import { workerData } from 'node:worker_threads';
import type { Diagnostic } from '../domain/errors';
import { parseRecipe, type ParseRecipeResult } from '../domain/recipes/parse-recipe';
import { parseSkill, type ParsedSkill } from '../domain/skills/parse-skill';
import { RecheckAnalyser } from '../regex-analysis';
import { NunjucksTemplateEngine } from '../templates';
import { createDocumentValidator } from './document-validators';
import type { ValidationTask, ValidationWorkerData } from './validation-task';

const settings = workerData as ValidationWorkerData;
const templates = new NunjucksTemplateEngine({ sandbox: 'in-process', limits: settings.templateLimits });
const validator = createDocumentValidator(templates, new RecheckAnalyser(settings.regexCheck));

export default function run(task: ValidationTask): Diagnostic[] | ParsedSkill | ParseRecipeResult {
  switch (task.kind) {
    case 'validate':
      return validator.validate(task.path, task.content);
    // The loaders' own parses, with the same template checks as theirs (no ReDoS advice at load).
    case 'skill':
      return parseSkill(task.source, templates);
    case 'recipe':
      return parseRecipe(task.input, templates);
  }
}
