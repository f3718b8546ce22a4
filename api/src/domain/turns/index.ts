/** Turns (issue 5): the runner, the store port, events and the chat log. */
export * from './turn';
export type { TurnStore } from './turn-store';
export { TurnRunner, UnknownEngineError, DEFAULT_MAX_ITERATIONS, type TurnRunnerDeps } from './turn-runner';
export { TurnComposer, type TurnComposition, type PromptSection } from './turn-composer';
export { envelopeOf, MAX_INLINE_PAYLOAD_CHARS, TurnEventSink } from './turn-event-sink';
export { TextBatcher } from './text-batcher';
export { ServerToolbox, type TurnToolbox } from './turn-toolbox';
export { toChatMessages } from './history';
export { callWithDeadline } from './model-call';
export { turnEventStream } from './turn-event-stream';
export { TurnService } from './turn-service';
