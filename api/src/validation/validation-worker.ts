/**
 * The worker side of the validation pool (validation-pool.ts): the same validator the CLI runs, with
 * its own template checker (compile only, in-process: nothing is rendered here) and its own ReDoS
 * analyser, both configured like the server's, and the server's tool catalog sent with each task;
 * and the loaders' parses of large documents.
 */
import os from 'node:os';
import { workerData } from 'node:worker_threads';
import type { DocumentValidator } from '../domain/documents/document-validator';
import type { Diagnostic } from '../domain/errors';
import { parseRecipe, type ParseRecipeResult } from '../domain/recipes/parse-recipe';
import { parseSkill, type ParsedSkill } from '../domain/skills/parse-skill';
import { StaticToolCatalog, type ToolDescriptor } from '../domain/tools/tool-descriptor';
import { RecheckAnalyser } from '../regex-analysis';
import { NunjucksTemplateEngine } from '../templates';
import { createDocumentValidator } from './document-validators';
import { VALIDATION_THREAD_NICE, type ValidationTask, type ValidationWorkerData } from './validation-task';

const settings = workerData as ValidationWorkerData;

/**
 * One author's validation must not take CPU from everyone's requests: on a 2-core machine the
 * validation thread, the PGlite thread and the server's thread contend, and another tenant's query
 * waited 4–6× its time at p99 while a 1 MB document validated. On Linux a nice value belongs to a
 * thread (setpriority(2), "BUGS"), so this lowers only this worker's; elsewhere it would renice the
 * whole server, so it is left alone.
 */
if (process.platform === 'linux') {
  try {
    os.setPriority(VALIDATION_THREAD_NICE);
  } catch {
    // Not allowed here (a container's policy): the worker runs at the server's priority.
  }
}
const templates = new NunjucksTemplateEngine({ sandbox: 'in-process', limits: settings.templateLimits });
const analyser = new RecheckAnalyser(settings.regexCheck);
const plainValidator = createDocumentValidator(templates, analyser);

/** The validator for the server's tool catalog of the task; it rarely changes, so the last one is kept. */
let lastCatalog: { key: string; validator: DocumentValidator } | null = null;
function validatorFor(tools: readonly ToolDescriptor[] | undefined): DocumentValidator {
  if (!tools) return plainValidator;
  const key = JSON.stringify(tools.map((t) => [t.name, t.labels]));
  if (lastCatalog?.key !== key) lastCatalog = { key, validator: createDocumentValidator(templates, analyser, new StaticToolCatalog(tools)) };
  return lastCatalog.validator;
}

export default function run(task: ValidationTask): Diagnostic[] | ParsedSkill | ParseRecipeResult | { value: unknown } | undefined {
  switch (task.kind) {
    case 'validate':
      return validatorFor(task.tools).validate(task.path, task.content);
    // The loaders' own parses, with the same template checks as theirs (no ReDoS advice at load).
    case 'skill':
      return parseSkill(task.source, templates);
    case 'recipe':
      return parseRecipe(task.input, templates);
    case 'json':
      try {
        return { value: JSON.parse(task.text) as unknown };
      } catch {
        return undefined;
      }
  }
}
