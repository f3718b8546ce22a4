/** Completions under the message box while `/skill <word>` is typed: skillCompletions(prefix), then list/clear. */
import { useEffect, useState } from 'react';
import { Button, Stack, Typography } from '@mui/material';
import { ops } from '../api/operations';
import { completionPrefix, SKILL_SUBCOMMANDS } from './skillLine';

export function SkillLineCompletions({ processId, text, onPick }: { processId: string; text: string; onPick: (line: string) => void }) {
  const prefix = completionPrefix(text);
  const [names, setNames] = useState<{ prefix: string; names: string[] } | null>(null);
  useEffect(() => {
    if (prefix === null) return;
    let live = true;
    ops.skillCompletions(processId, prefix).then(
      (found) => live && setNames({ prefix, names: found }),
      () => live && setNames({ prefix, names: [] }),
    );
    return () => { live = false; };
  }, [processId, prefix]);
  if (prefix === null || names?.prefix !== prefix) return null;
  const words = [...names.names, ...SKILL_SUBCOMMANDS.filter((w) => w.startsWith(prefix.toLowerCase()))];
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 1, flexWrap: 'wrap', alignItems: 'center' }} data-testid="skill-completions">
      <Typography variant="caption" color="text.secondary">{words.length ? 'complete:' : 'no skill starts with that'}</Typography>
      {words.map((w) => (
        <Button key={w} size="small" variant="outlined" data-testid={`completion-${w}`} data-subcommand={names.names.includes(w) ? undefined : 'true'}
          onClick={() => onPick(`/skill ${w}${w === 'list' ? '' : ' '}`)}>{w}</Button>
      ))}
    </Stack>
  );
}
