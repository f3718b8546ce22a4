/**
 * A process's activation log (issue 17 point 6): for every turn the candidate skills with their
 * verdict sentence and whose doing each activation was, what the budget cut, the guards that ran;
 * between turns the activations, refusals and clears by people, triggers, recipes and spawns.
 * Filter by skill and by kind; each skill links to its page (document, version, history).
 */
import { useMemo, useState } from 'react';
import { Alert, Box, Button, Chip, MenuItem, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { Loading, Title } from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import { messageOf } from '../api/graphql';
import { useAsync } from '../common/useAsync';
import { activationEntries, ENTRY_KINDS, type LogEntry } from './activationEntries';
import { readEventLog } from './eventLog';

const ANY = '';

export function ActivationLog() {
  const { id = '' } = useParams();
  const processId = decodeURIComponent(id);
  const log = useAsync(async (dp) => ({ process: await dp.process(processId), ...(await readEventLog(processId)) }), [processId]);
  const [skill, setSkill] = useState(ANY);
  const [kind, setKind] = useState(ANY);
  const entries = useMemo(() => (log.data ? activationEntries(log.data.turnEvents, log.data.processEvents) : []), [log.data]);
  const skills = useMemo(() => [...new Set(entries.map((e) => e.skill).filter((s): s is string => s !== null))].sort(), [entries]);
  const shown = entries.filter((e) => (skill === ANY || e.skill === skill) && (kind === ANY || e.kind === kind));

  if (log.error) return <Alert severity="error">{messageOf(log.error)}</Alert>;
  if (!log.data) return <Loading />;
  const p = log.data.process;
  return (
    <Box sx={{ p: 2, minWidth: 0 }}>
      <Title title={`Activation log · ${p.name}`} />
      <Stack direction="row" spacing={1} useFlexGap sx={{ mb: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Link to={`/processes/${encodeURIComponent(p.id)}/show`}>← {p.name}</Link>
        <Typography variant="h5">Activation log</Typography>
        <Button size="small" onClick={log.reload} data-testid="log-reload">Reload</Button>
      </Stack>
      <Stack direction="row" spacing={2} useFlexGap sx={{ mb: 2, flexWrap: 'wrap' }}>
        <TextField select size="small" label="Skill" value={skill} onChange={(e) => setSkill(e.target.value)} sx={{ minWidth: 180 }}
          slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'log-filter-skill' }, inputLabel: { shrink: true } }}>
          <option value={ANY}>all skills</option>
          {skills.map((s) => <option key={s} value={s}>{s}</option>)}
        </TextField>
        <TextField select size="small" label="Kind" value={kind} onChange={(e) => setKind(e.target.value)} sx={{ minWidth: 160 }}
          slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'log-filter-kind' }, inputLabel: { shrink: true } }}>
          <option value={ANY}>all kinds</option>
          {ENTRY_KINDS.map((k) => <option key={k} value={k}>{k}</option>)}
        </TextField>
        <Typography variant="body2" sx={{ alignSelf: 'center' }} data-testid="log-count">{shown.length} of {entries.length} entries</Typography>
      </Stack>
      <TableContainer sx={{ maxWidth: '100%', overflowX: 'auto' }}>
        <Table size="small" data-testid="activation-log">
          <TableHead>
            <TableRow><TableCell>Turn</TableCell><TableCell>Kind</TableCell><TableCell>Skill</TableCell><TableCell>Origin</TableCell><TableCell>Verdict / detail</TableCell><TableCell>At</TableCell></TableRow>
          </TableHead>
          <TableBody>
            {shown.map((e) => <EntryRow key={e.key} entry={e} />)}
            {shown.length === 0 ? <TableRow><TableCell colSpan={6} sx={{ opacity: 0.6 }}>Nothing recorded{entries.length ? ' for this filter' : ' yet'}.</TableCell></TableRow> : null}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}

const KIND_COLOR = { activated: 'success', refused: 'warning', cleared: 'default', guard: 'info', budget: 'warning', model: 'secondary' } as const;

function EntryRow({ entry: e }: { entry: LogEntry }) {
  const color = KIND_COLOR[e.kind as keyof typeof KIND_COLOR] ?? 'default';
  return (
    <TableRow data-kind={e.kind} data-skill={e.skill ?? ''} data-origin={e.origin ?? ''} data-on={e.on === undefined ? '' : String(e.on)}
      sx={e.kind === 'turn' ? { bgcolor: 'action.hover' } : undefined}>
      <TableCell>{e.turn ?? '—'}</TableCell>
      <TableCell><Chip size="small" label={e.kind === 'candidate' ? (e.on ? 'candidate · on' : 'candidate · off') : e.kind} color={e.kind === 'candidate' ? (e.on ? 'success' : 'default') : color} variant={e.kind === 'candidate' && !e.on ? 'outlined' : 'filled'} /></TableCell>
      <TableCell>{e.skill ? <Link to={`/skills/${encodeURIComponent(e.skill)}/show`}>{e.skill}</Link> : '—'}</TableCell>
      <TableCell>{e.origin ?? '—'}</TableCell>
      <TableCell sx={{ color: e.tone === 'error' ? 'error.main' : e.tone === 'warning' ? 'warning.dark' : undefined, minWidth: 240 }}>{e.text}</TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{new Date(e.at).toLocaleTimeString()}</TableCell>
    </TableRow>
  );
}
