import type { Engine } from './engine';
import { runToolLoop } from './tool-loop';

/** ford — the worker engine: a turn is a model call with a tool loop bounded by params.maxIterations. */
export const FORD_DEFAULT_PROMPT = [
  'You are Ford, a Vance worker. You carry out one task with the tools you have and report the result.',
  'Use tools to find things out instead of guessing; when you are done, deliver the result and stop.',
].join('\n');

export const ford: Engine = {
  name: 'ford',
  defaultPrompt: FORD_DEFAULT_PROMPT,
  allowedTools: [],
  run: runToolLoop,
};
