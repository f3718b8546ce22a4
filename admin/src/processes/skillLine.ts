/**
 * Which message-box lines are `/skill` commands, as the server decides (api/src/domain/processes/
 * skill-command.ts: trimmed, `/skill` in any case, then whitespace or the end), and the word being
 * typed after `/skill ` that completions are offered for.
 */
const SKILL_LINE = /^\/skill(?=\s|$)/i;
const FIRST_WORD = /^\/skill\s+(\S*)$/i;
/** Sub-commands, offered beside the skill names (skill-command.ts RESERVED_SKILL_COMMAND_WORDS). */
export const SKILL_SUBCOMMANDS = ['list', 'clear'] as const;

export const isSkillLine = (text: string): boolean => SKILL_LINE.test(text.replace(/\r\n?/g, '\n').trim());

/** The partial first word after `/skill ` while it is being typed; null otherwise. */
export function completionPrefix(text: string): string | null {
  const match = FIRST_WORD.exec(text.trimStart());
  return match ? match[1]! : null;
}
