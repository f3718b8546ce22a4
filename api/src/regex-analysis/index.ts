/** Save-time analysis of author regexes (issue 13): the BacktrackingAnalyser adapter on recheck. */
export { COOL_DOWN_MS, MAX_ANALYSED_LENGTH, RecheckAnalyser, type CheckSync, type RecheckAnalyserOptions } from './recheck-analyser';
