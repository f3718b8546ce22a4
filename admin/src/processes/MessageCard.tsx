/** The message box (sendMessage schedules a turn), regenerating the last turn, and the inbox waiting for the next turn. */
import { useState } from 'react';
import { Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import type { Process } from '../api/types';
import { RegenerateButton } from './RegenerateButton';

export function MessageCard({ process: p, onSend, onRegenerate }: { process: Process; onSend: (text: string) => Promise<void>; onRegenerate: () => void }) {
  const [text, setText] = useState('');
  return (
    <Card variant="outlined" sx={{ mb: 2 }}>
      <CardContent>
        <Typography variant="subtitle1">Send a message</Typography>
        <form onSubmit={(e) => { e.preventDefault(); const t = text.trim(); if (t) void onSend(t).then(() => setText('')); }}>
          <Stack direction="row" spacing={1}>
            <TextField fullWidth size="small" value={text} onChange={(e) => setText(e.target.value)} placeholder="Message" slotProps={{ htmlInput: { 'data-testid': 'message-input' } }} />
            <Button type="submit" variant="contained" data-testid="send-message">Send</Button>
          </Stack>
        </form>
        <Box sx={{ mt: 1 }}><RegenerateButton onRegenerate={onRegenerate} /></Box>
        <Typography variant="subtitle2" sx={{ mt: 2 }}>Inbox ({p.pending.length}){p.turnRequestedAt ? ' · turn scheduled' : ''}</Typography>
        {p.pending.map((m) => <Box key={m.id} sx={{ fontSize: 14 }}><b>{m.senderName}</b>: {m.content}</Box>)}
      </CardContent>
    </Card>
  );
}
