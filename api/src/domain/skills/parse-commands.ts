import { commandProblem, createEngineCommandDispatcher } from '../processes/commands';
import { fieldName, type FrontmatterReader, type YamlPath } from './frontmatter-reader';

/**
 * `activate:` / `deactivate:` (seed 000 §2a): lists of engine commands, each entry checked by the
 * dispatcher the skill steer runs them with (services.ts builds it with the same factory), so an
 * entry that would fail on activation (`//`, an unknown verb, `guard script ../x.js`) is an ERROR at
 * its line instead of a failure when someone turns the skill on. A `deactivate:` step that fails
 * is an error too: cleanup would leave its state behind on every clear. Checked at save only: a
 * skill force-saved with a failing step still loads and is refused when activated, as before.
 */
const DISPATCHER = createEngineCommandDispatcher();

/** `check`: at save (validation); loading for a turn reads the list as stored. */
export function readCommands(reader: FrontmatterReader, at: YamlPath, value: unknown, check: boolean): string[] {
  const commands: string[] = [];
  for (const entry of reader.stringEntries(at, value)) {
    const problem = check ? commandProblem(DISPATCHER, entry.value) : null;
    if (problem !== null) reader.error(entry.at, `\`${fieldName(entry.at)}\` would fail when it runs: ${problem}.`);
    commands.push(entry.value);
  }
  return commands;
}
