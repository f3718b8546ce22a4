import { isSeq, parseDocument } from 'yaml';
import { InvalidInputError } from '../errors';
import { MAX_EVAL_MESSAGE_CHARS, MAX_EVAL_MESSAGES } from './parse-skill-evals';

/** A case as the trigger bench saves it: the conversation under test and what it should do. */
export interface NewEvalCase {
  readonly messages: readonly string[];
  readonly fires: boolean;
  readonly recipe: string | null;
}

/**
 * An evals.yaml with one more `fires:` case at the end of `cases:` (issue 20, the bench's "save as
 * case"). Edits the YAML document, so the author's comments and layout stay; `null` starts a file.
 * The caller writes the result through the document validator like any other write.
 */
export function appendEvalCase(content: string | null, added: NewEvalCase): string {
  if (added.messages.length === 0 || added.messages.length > MAX_EVAL_MESSAGES) throw new InvalidInputError('INVALID_EVAL_CASE', `A case holds 1 to ${MAX_EVAL_MESSAGES} messages`, 'messages');
  const long = added.messages.findIndex((m) => m.length > MAX_EVAL_MESSAGE_CHARS);
  if (long >= 0) throw new InvalidInputError('INVALID_EVAL_CASE', `A message may hold at most ${MAX_EVAL_MESSAGE_CHARS} characters`, `messages[${long}]`);
  const entry = {
    ...(added.messages.length === 1 ? { message: added.messages[0] } : { messages: [...added.messages] }),
    ...(added.recipe ? { recipe: added.recipe } : {}),
    fires: added.fires,
  };
  const doc = parseDocument(content?.trim() ? content : 'cases: []\n');
  if (doc.errors.length > 0) throw new InvalidInputError('SKILL_EVALS_INVALID', `The evals file does not parse: ${doc.errors[0]?.message.split('\n')[0] ?? ''}`, 'content');
  const cases = doc.get('cases', true);
  if (cases !== undefined && !isSeq(cases)) throw new InvalidInputError('SKILL_EVALS_INVALID', 'The evals file\'s `cases:` is not a list', 'cases');
  if (isSeq(cases)) {
    // A flow `cases: []` would keep the new case on one line; the block style reads like the rest.
    cases.flow = false;
    cases.add(doc.createNode(entry));
  } else {
    doc.set('cases', doc.createNode([entry]));
  }
  return doc.toString();
}
