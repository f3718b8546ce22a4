/**
 * `respond` (seed 004 §5a): the structured reply. Engines offer it; a call ends the model's turn and
 * its `message` is the reply — streamed and stored like a plain answer (engines/tool-loop.ts handles
 * the call; it never reaches `invoke`). The No-Tool-Call validator correction is built around it:
 * a reply that neither calls a work tool nor responds gets one correction.
 */
import { objectSchema } from './json-schema';
import { refuse, type BuiltinTool } from './tool-support';

export const RESPOND_TOOL = 'respond';

export function respondTool(): BuiltinTool {
  return {
    name: RESPOND_TOOL,
    labels: ['read', 'chat'],
    description:
      'Deliver your reply to the user or caller and end your turn. Put the whole reply in `message` (Markdown is fine): ' +
      'it is shown exactly as written, and a caller that spawned you receives it as your result. ' +
      'Call your work tools first; call respond last, once, when you are done.',
    parameters: objectSchema({ message: { type: 'string', description: 'The complete reply.' } }, ['message']),
    // Only a model's call ends a turn; a script calling it gets this (the loop intercepts the model's calls).
    invoke: async () => refuse('respond ends the model\'s turn; only the model can call it, not a script'),
  };
}

/** The reply of a respond call, or null when its arguments carry no `message` string. */
export function respondMessage(args: Readonly<Record<string, unknown>>): string | null {
  const message = args['message'];
  return typeof message === 'string' ? message : null;
}
