import { Card, CardContent, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { Process } from '../api/types';
import { guardRows } from './guardRows';

/** Recipe and runtime completion guards with their trigger, round cap and the rounds used since the last user message. */
export function GuardsPanel({ process }: { process: Process }) {
  const { rows, otherRounds } = guardRows(process);
  return (
    <Card variant="outlined" sx={{ mb: 2 }} data-testid="guards">
      <CardContent>
        <Typography variant="subtitle1">Guards</Typography>
        {rows.length === 0 ? <Typography variant="body2" color="text.secondary">No guards.</Typography> : (
          <Table size="small">
            <TableHead><TableRow><TableCell>Kind</TableCell><TableCell>Script</TableCell><TableCell>Trigger</TableCell><TableCell>Max rounds</TableCell><TableCell>Rounds used</TableCell></TableRow></TableHead>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={r.key} data-guard={r.key}>
                  <TableCell>{r.origin}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{r.script}</TableCell>
                  <TableCell>{r.trigger}</TableCell>
                  <TableCell>{r.trigger === 'start' || r.trigger === 'command' ? '—' : r.maxRounds ?? 'default'}</TableCell>
                  <TableCell>{r.rounds ?? '—'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {otherRounds.length > 0 ? (
          <Typography variant="caption" data-testid="other-guard-rounds">Other round counters: {otherRounds.map(([k, v]) => `${k} = ${v}`).join(', ')}</Typography>
        ) : null}
      </CardContent>
    </Card>
  );
}
