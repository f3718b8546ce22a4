import { Chip, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import type { SkillVerdict } from '../api/types';

/** Every candidate skill's verdict for the next turn, the ones that fire first. */
export const VerdictTable = ({ verdicts }: { verdicts: readonly SkillVerdict[] }) => (
  <Table size="small" data-testid="activation-verdicts">
    <TableHead><TableRow><TableCell>Skill</TableCell><TableCell>On</TableCell><TableCell>Reason</TableCell><TableCell>When</TableCell></TableRow></TableHead>
    <TableBody>
      {[...verdicts].sort((a, b) => Number(b.on) - Number(a.on) || a.skill.localeCompare(b.skill)).map((v) => (
        <TableRow key={v.skill} data-on={v.on} data-skill={v.skill}>
          <TableCell>{v.skill}</TableCell>
          <TableCell><Chip size="small" label={v.on ? 'on' : 'off'} color={v.on ? 'success' : 'default'} /></TableCell>
          <TableCell>{v.reason}</TableCell>
          <TableCell>{v.when ?? '—'}</TableCell>
        </TableRow>
      ))}
      {verdicts.length === 0 ? <TableRow><TableCell colSpan={4} sx={{ opacity: 0.6 }}>No candidate skills.</TableCell></TableRow> : null}
    </TableBody>
  </Table>
);
