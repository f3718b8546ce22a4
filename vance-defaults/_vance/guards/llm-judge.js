// llm-judge — the reusable "LLM judge + fixed follow-up" completion guard
// (seed 004 §6d). Configure it in a recipe:
//
//   guard:
//     - script: _vance/guards/llm-judge.js
//       params:
//         judge: "Was a development task completed?"     # the yes/no question
//         prompt: "Did you run the build and update the spec?"  # the follow-up
//         recipe: completion-guard                       # optional judge recipe
//       trigger: stop
//       maxRounds: 2
//
// The judge answers {"fire": true|false, "reason": "…"}; when it fires, the
// engine goes on with `prompt`. Anything missing or malformed lets the turn
// deliver (fail-open): this script returns without continuing.
const params = vance.params || {};
if (typeof params.judge !== 'string' || typeof params.prompt !== 'string' || !params.judge || !params.prompt) {
  vance.log('warn', 'llm-judge: params.judge and params.prompt are required; the guard does nothing');
  return;
}
const verdict = vance.llm.callForJson(params.recipe || 'completion-guard', 'Evaluate the guard condition.', {
  judge: params.judge,
  task: vance.guard.task,
  output: vance.guard.output,
});
if (verdict && verdict.fire === true) {
  vance.log('info', 'llm-judge fired: ' + (verdict.reason || 'no reason given'));
  vance.guard.continueWith(params.prompt);
} else {
  vance.log('debug', 'llm-judge did not fire' + (verdict && verdict.reason ? ': ' + verdict.reason : ''));
}
