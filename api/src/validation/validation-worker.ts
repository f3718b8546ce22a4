/**
 * The worker side of the validation pool (validation-pool.ts): the same validator the CLI runs, with
 * its own template checker (compile only, in-process: nothing is rendered here) and its own ReDoS
 * analyser, both configured like the server's.
 */
import { workerData } from 'node:worker_threads';
import type { Diagnostic } from '../domain/errors';
import { RecheckAnalyser } from '../regex-analysis';
import { NunjucksTemplateEngine } from '../templates';
import { createDocumentValidator } from './document-validators';
import type { ValidationTask, ValidationWorkerData } from './validation-task';

const settings = workerData as ValidationWorkerData;
const validator = createDocumentValidator(
  new NunjucksTemplateEngine({ sandbox: 'in-process', limits: settings.templateLimits }),
  new RecheckAnalyser(settings.regexCheck),
);

export default function validate(task: ValidationTask): Diagnostic[] {
  return validator.validate(task.path, task.content);
}
