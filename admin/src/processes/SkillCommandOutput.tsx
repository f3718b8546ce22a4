/** What the last `/skill` line did: activated (its summary), cleared, the list — or refused, with the server's reason. */
import { Alert, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import type { SkillCommandOutcome } from '../api/types';

export type SkillLineResult = { line: string; outcome: SkillCommandOutcome } | { line: string; refused: string };

export function SkillCommandOutput({ result }: { result: SkillLineResult | null }) {
  if (!result) return null;
  if ('refused' in result) {
    return <Alert severity="error" sx={{ mt: 1 }} data-testid="skill-command-result" data-kind="REFUSED"><b>{result.line}</b> refused: {result.refused}</Alert>;
  }
  const { outcome } = result;
  const label = outcome.kind === 'ACTIVATE' ? `${outcome.activation?.outcome.toLowerCase() ?? 'activated'}` : outcome.kind === 'CLEAR' ? 'cleared' : 'skills';
  return (
    <Alert severity="success" sx={{ mt: 1 }} data-testid="skill-command-result" data-kind={outcome.kind}>
      <b>{label}</b>: {outcome.message}
      {outcome.skills ? (
        <Table size="small" data-testid="skill-list">
          <TableHead><TableRow><TableCell>Skill</TableCell><TableCell>Active</TableCell><TableCell>Layer</TableCell><TableCell>Description</TableCell></TableRow></TableHead>
          <TableBody>
            {outcome.skills.map((s) => (
              <TableRow key={s.name} data-skill={s.name} data-active={String(s.active)}>
                <TableCell>{s.name}{s.title ? ` — ${s.title}` : ''}</TableCell>
                <TableCell>{s.active ? 'active' : ''}</TableCell>
                <TableCell>{s.source}</TableCell>
                <TableCell>{s.description ?? ''}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
    </Alert>
  );
}
