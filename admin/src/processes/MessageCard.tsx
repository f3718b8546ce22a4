/**
 * The message box, regenerating the last turn, and the inbox waiting for the next turn. A line that
 * starts with `/skill` is a command (skillCommand: activate, clear, list), never a message to the
 * model; its result shows under the box, and completions are offered while its first word is typed.
 * Any other line goes to sendMessage (which schedules a turn).
 */
import { useRef, useState } from 'react';
import { Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import type { Process } from '../api/types';
import { RegenerateButton } from './RegenerateButton';
import { SkillCommandOutput, type SkillLineResult } from './SkillCommandOutput';
import { SkillLineCompletions } from './SkillLineCompletions';
import { isSkillLine } from './skillLine';

export interface MessageActions {
  send: (text: string) => Promise<void>;
  /** Resolves with what the line did or why it was refused; the box is emptied unless refused. */
  skillCommand: (line: string) => Promise<SkillLineResult>;
  regenerate: () => void;
}

export function MessageCard({ process: p, actions }: { process: Process; actions: MessageActions }) {
  const [text, setText] = useState('');
  const [result, setResult] = useState<SkillLineResult | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const command = isSkillLine(text);
  const submit = async () => {
    const t = text.trim();
    if (!t) return;
    if (!isSkillLine(t)) {
      await actions.send(t);
      setText('');
      return;
    }
    const done = await actions.skillCommand(t);
    setResult(done);
    if (!('refused' in done)) setText('');
  };
  return (
    <Card variant="outlined" sx={{ mb: 2 }}>
      <CardContent>
        <Typography variant="subtitle1">Send a message</Typography>
        <form onSubmit={(e) => { e.preventDefault(); void submit(); }}>
          <Stack direction="row" spacing={1}>
            <TextField fullWidth size="small" value={text} onChange={(e) => setText(e.target.value)} placeholder="Message, or /skill <name> · /skill list · /skill clear"
              inputRef={input} slotProps={{ htmlInput: { 'data-testid': 'message-input' } }} />
            <Button type="submit" variant="contained" data-testid="send-message" data-command={command ? 'skill' : 'message'}>{command ? 'Run' : 'Send'}</Button>
          </Stack>
        </form>
        <SkillLineCompletions processId={p.id} text={text} onPick={(line) => { setText(line); input.current?.focus(); }} />
        <SkillCommandOutput result={result} />
        <Box sx={{ mt: 1 }}><RegenerateButton onRegenerate={actions.regenerate} /></Box>
        <Typography variant="subtitle2" sx={{ mt: 2 }}>Inbox ({p.pending.length}){p.turnRequestedAt ? ' · turn scheduled' : ''}</Typography>
        {p.pending.map((m) => <Box key={m.id} sx={{ fontSize: 14 }} data-testid="pending-message"><b>{m.senderName}</b>: {m.content}</Box>)}
      </CardContent>
    </Card>
  );
}
