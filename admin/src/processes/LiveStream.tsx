/** The live turn stream, grouped per turn: its text (TextDelta joined) and the other events as readable steps. */
import { useMemo } from 'react';
import { Box, Card, CardContent, Chip, Typography } from '@mui/material';
import type { TurnEvent } from '../api/types';
import { describeTurnEvent, type StepTone, type TurnStep } from './describeTurnEvent';

/** Turns shown: the stream keeps more events, the page only the latest turns. */
const SHOWN_TURNS = 5;
const TONE_COLOR: Record<StepTone, string> = { plain: 'text.secondary', log: 'text.primary', warning: 'warning.main', error: 'error.main' };

interface StreamTurn { turnId: string; text: string; steps: TurnStep[] }

function groupByTurn(events: readonly TurnEvent[]): StreamTurn[] {
  const out: StreamTurn[] = [];
  for (const e of events) {
    let t = out.find((x) => x.turnId === e.turnId);
    if (!t) out.push((t = { turnId: e.turnId, text: '', steps: [] }));
    if (e.type === 'TextDelta') t.text += typeof e.payload.text === 'string' ? e.payload.text : '';
    else t.steps.push(describeTurnEvent(e));
  }
  return out.slice(-SHOWN_TURNS);
}

/** `turnStatus` (turn id → Turn.status) marks turns taken back by regenerateTurn; their events stay in the stream. */
export function LiveStream({ events, status, turnStatus }: { events: TurnEvent[]; status: string; turnStatus?: ReadonlyMap<string, string> }) {
  const turns = useMemo(() => groupByTurn(events), [events]);
  return (
    <Card variant="outlined" data-testid="turn-stream">
      <CardContent>
        <Typography variant="subtitle1">Live turn stream <Chip size="small" label={status} data-testid="stream-status" /></Typography>
        {turns.length === 0 ? <Typography variant="body2" color="text.secondary">No turns yet.</Typography> : null}
        {turns.map((t) => (
          <Box key={t.turnId} sx={{ borderLeft: '3px solid #1976d2', pl: 1, my: 1, opacity: turnStatus?.get(t.turnId) === 'REGENERATED' ? 0.55 : 1 }} data-turn={t.turnId}>
            {turnStatus?.get(t.turnId) === 'REGENERATED' ? <Chip size="small" variant="outlined" label="regenerated" data-testid="stream-regenerated" /> : null}
            <Box data-testid="stream-steps">
              {t.steps.map((s) => (
                <Typography key={s.id} variant="caption" component="div" sx={{ color: TONE_COLOR[s.tone], fontFamily: s.tone === 'plain' ? undefined : 'monospace' }} data-type={s.type}>
                  {s.text}
                </Typography>
              ))}
            </Box>
            <Box sx={{ whiteSpace: 'pre-wrap', fontFamily: 'monospace', fontSize: 13 }} data-testid="stream-text">{t.text}</Box>
          </Box>
        ))}
      </CardContent>
    </Card>
  );
}
