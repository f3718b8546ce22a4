/** A process's turns (status, finish reason, error) and its chat log. */
import { Box, Card, CardContent, Typography } from '@mui/material';
import type { ChatLogMessage, Turn } from '../api/types';

export function HistoryCard({ turns, messages }: { turns: Turn[]; messages: ChatLogMessage[] }) {
  return (
    <Card variant="outlined">
      <CardContent data-testid="history">
        <Typography variant="subtitle1">History</Typography>
        <Typography variant="subtitle2">Turns ({turns.length})</Typography>
        {turns.map((t) => (
          <Box key={t.id} sx={{ fontSize: 13 }} data-testid="turn-row" data-status={t.status}>
            {new Date(t.startedAt).toLocaleTimeString()} · {t.status}{t.finishReason ? ` (${t.finishReason})` : ''}{t.errorMessage ? ` — ${t.errorMessage}` : ''}
          </Box>
        ))}
        <Typography variant="subtitle2" sx={{ mt: 1 }}>Messages</Typography>
        {messages.map((m) => (
          <Box key={m.id} sx={{ fontSize: 14, mb: 0.5 }} data-role={m.role}><b>{m.role}{m.senderName ? ` ${m.senderName}` : ''}</b>: <span style={{ whiteSpace: 'pre-wrap' }}>{m.content}</span></Box>
        ))}
      </CardContent>
    </Card>
  );
}
