/** One skill's eval report (issue 20): the summary, every case with the turn's verdict sentence, confusions and notes. */
import { Alert, Box, Chip, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { SkillEvalReport } from '../api/types';
import { LayerChip } from '../common/Chips';

const percent = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 100)}%`);

export function EvalReport({ report }: { report: SkillEvalReport }) {
  const failed = report.cases.filter((c) => !c.passed);
  return (
    <Box data-testid="eval-report">
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', my: 1 }}>
        <Typography variant="subtitle1">{report.path}</Typography>
        <LayerChip layer={report.source} />
        <Chip size="small" color="success" label={`${report.passed} passed`} />
        <Chip size="small" color={report.failed > 0 ? 'error' : 'default'} label={`${report.failed} failed`} data-testid="eval-failed" />
        {report.skipped > 0 ? <Chip size="small" label={`${report.skipped} skipped`} /> : null}
        <Chip size="small" variant="outlined" label={`precision ${percent(report.precision)}`} />
        <Chip size="small" variant="outlined" label={`recall ${percent(report.recall)}`} />
      </Box>
      {report.notes.map((note) => <Alert key={note} severity="info" sx={{ mb: 1 }}>{note}</Alert>)}
      {report.confusions.length > 0 ? (
        <Alert severity="warning" sx={{ mb: 1 }} data-testid="eval-confusions">
          Also fire on this skill's positive messages: {report.confusions.map((c) => `${c.skill} (case${c.cases.length === 1 ? '' : 's'} ${c.cases.map((i) => i + 1).join(', ')})`).join('; ')}
        </Alert>
      ) : null}
      {failed.length > 0 ? <Typography variant="body2" color="error" sx={{ mb: 1 }}>{failed.length} failing: {failed.map((c) => `line ${c.line}`).join(', ')}</Typography> : null}
      <Table size="small" data-testid="eval-cases">
        <TableHead><TableRow><TableCell>Line</TableCell><TableCell>Result</TableCell><TableCell>Expects</TableCell><TableCell>Conversation (last is answered)</TableCell><TableCell>Verdict</TableCell></TableRow></TableHead>
        <TableBody>
          {report.cases.map((c) => (
            <TableRow key={c.index} data-passed={c.passed && !c.skipped} data-skipped={c.skipped}>
              <TableCell>{c.line}</TableCell>
              <TableCell><Chip size="small" label={c.skipped ? 'skip' : c.passed ? 'pass' : 'FAIL'} color={c.skipped ? 'default' : c.passed ? 'success' : 'error'} /></TableCell>
              <TableCell>{c.kind}: {String(c.expected)}</TableCell>
              <TableCell>{c.messages.map((m, i) => <div key={i}>{m}</div>)}</TableCell>
              <TableCell>
                {c.verdict}
                {c.problems.map((p) => <Typography key={p} variant="body2" color="error">{p}</Typography>)}
                {c.confusions.length > 0 ? <Typography variant="body2" color="warning.main">Also fires: {c.confusions.join(', ')}</Typography> : null}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
