/**
 * One process: active skills as badges (clear one or all, activate one), the inbox, history (turns
 * and chat log), the live turn stream, and a message box (sendMessage schedules a turn).
 */
import { useMemo, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Checkbox, Chip, FormControlLabel, Grid, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { Title, useDataProvider, useNotify } from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import type { VanceDataProvider } from '../api/dataProvider';
import { messageOf } from '../api/graphql';
import type { TurnEvent } from '../api/types';
import { useAsync } from '../common/useAsync';
import { SkillBadges } from './SkillBadges';
import { useTurnStream } from './useTurnStream';

export function ProcessShow() {
  const { id = '' } = useParams();
  const processId = decodeURIComponent(id);
  const dp = useDataProvider<VanceDataProvider>();
  const notify = useNotify();
  const proc = useAsync((p) => p.process(processId), [processId]);
  const history = useAsync(async (p) => ({ turns: await p.turns(processId), messages: await p.messages(processId) }), [processId]);
  const completions = useAsync((p) => p.skillCompletions(processId), [processId]);
  const refreshAll = () => { proc.reload(); history.reload(); completions.reload(); };
  const stream = useTurnStream(processId, (e) => { if (e.type === 'TurnFinished' || e.type === 'TurnFailed' || e.type === 'TurnStarted') refreshAll(); });
  const [text, setText] = useState('');
  const [skill, setSkill] = useState('');
  const [once, setOnce] = useState(false);

  const act = async (what: () => Promise<unknown>, done?: string) => {
    try {
      await what();
      if (done) notify(done, { type: 'info' });
      refreshAll();
    } catch (err) {
      notify(messageOf(err), { type: 'error' });
    }
  };
  const p = proc.data;
  if (proc.error) return <Alert severity="error">{messageOf(proc.error)}</Alert>;
  if (!p) return null;
  return (
    <Box sx={{ p: 2 }}>
      <Title title={`Process ${p.name}`} />
      <Stack direction="row" spacing={1} sx={{ mb: 1, alignItems: 'center' }}>
        <Link to="/processes">← processes</Link>
        <Typography variant="h5">{p.name}</Typography>
        <Chip size="small" label={p.status} />
        <Typography variant="body2">recipe {p.recipe ?? '—'} ({p.recipeSource ?? '—'}) · engine {p.engine} · session {p.session.name}{p.locked ? ' · locked' : ''}</Typography>
      </Stack>
      <Typography variant="body2" sx={{ mb: 1 }}>Allowed skills: {p.allowedSkills === null ? 'no restriction' : p.allowedSkills.length ? p.allowedSkills.join(', ') : 'lockdown'}</Typography>
      <Card variant="outlined" sx={{ mb: 2 }}>
        <CardContent>
          <Typography variant="subtitle1">Active skills</Typography>
          <SkillBadges skills={p.activeSkills} onClear={(name) => void act(() => dp.clearSkills(p.id, name), `Cleared ${name}`)} />
          <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center' }}>
            <TextField select size="small" label="Skill" value={skill} onChange={(e) => setSkill(e.target.value)} sx={{ minWidth: 200 }}>
              {(completions.data ?? []).map((s) => <MenuItem key={s} value={s}>{s}</MenuItem>)}
            </TextField>
            <FormControlLabel control={<Checkbox checked={once} onChange={(e) => setOnce(e.target.checked)} />} label="once" />
            <Button variant="outlined" disabled={!skill} onClick={() => void act(() => dp.activateSkill(p.id, skill, once), `Activated ${skill}`)} data-testid="activate-skill">Activate</Button>
            <Button color="warning" onClick={() => void act(() => dp.clearSkills(p.id), 'Cleared skills')} data-testid="clear-skills">Clear all</Button>
          </Stack>
        </CardContent>
      </Card>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Card variant="outlined" sx={{ mb: 2 }}>
            <CardContent>
              <Typography variant="subtitle1">Send a message</Typography>
              <form onSubmit={(e) => { e.preventDefault(); const t = text.trim(); if (t) void act(() => dp.sendMessage(p.id, t)).then(() => setText('')); }}>
                <Stack direction="row" spacing={1}>
                  <TextField fullWidth size="small" value={text} onChange={(e) => setText(e.target.value)} placeholder="Message" slotProps={{ htmlInput: { 'data-testid': 'message-input' } }} />
                  <Button type="submit" variant="contained" data-testid="send-message">Send</Button>
                </Stack>
              </form>
              <Typography variant="subtitle2" sx={{ mt: 2 }}>Inbox ({p.pending.length}){p.turnRequestedAt ? ' · turn scheduled' : ''}</Typography>
              {p.pending.map((m) => <Box key={m.id} sx={{ fontSize: 14 }}><b>{m.senderName}</b>: {m.content}</Box>)}
            </CardContent>
          </Card>
          <LiveStream events={stream.events} status={stream.status} />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Card variant="outlined">
            <CardContent data-testid="history">
              <Typography variant="subtitle1">History</Typography>
              <Typography variant="subtitle2">Turns ({history.data?.turns.length ?? 0})</Typography>
              {(history.data?.turns ?? []).map((t) => (
                <Box key={t.id} sx={{ fontSize: 13 }}>{new Date(t.startedAt).toLocaleTimeString()} · {t.status}{t.finishReason ? ` (${t.finishReason})` : ''}{t.errorMessage ? ` — ${t.errorMessage}` : ''}</Box>
              ))}
              <Typography variant="subtitle2" sx={{ mt: 1 }}>Messages</Typography>
              {(history.data?.messages ?? []).map((m) => (
                <Box key={m.id} sx={{ fontSize: 14, mb: 0.5 }} data-role={m.role}><b>{m.role}{m.senderName ? ` ${m.senderName}` : ''}</b>: <span style={{ whiteSpace: 'pre-wrap' }}>{m.content}</span></Box>
              ))}
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    </Box>
  );
}

/** Groups the stream per turn: its text (TextDelta joined) and the other events as a timeline. */
function LiveStream({ events, status }: { events: TurnEvent[]; status: string }) {
  const turns = useMemo(() => {
    const out: { turnId: string; text: string; steps: string[] }[] = [];
    for (const e of events) {
      let t = out.find((x) => x.turnId === e.turnId);
      if (!t) out.push((t = { turnId: e.turnId, text: '', steps: [] }));
      if (e.type === 'TextDelta') t.text += typeof e.payload.text === 'string' ? e.payload.text : '';
      else t.steps.push(e.type === 'TurnFailed' ? `TurnFailed: ${String(e.payload.message ?? e.payload.code ?? '')}` : e.type);
    }
    return out.slice(-5);
  }, [events]);
  return (
    <Card variant="outlined" data-testid="turn-stream">
      <CardContent>
        <Typography variant="subtitle1">Live turn stream <Chip size="small" label={status} data-testid="stream-status" /></Typography>
        {turns.length === 0 ? <Typography variant="body2" color="text.secondary">No turns yet.</Typography> : null}
        {turns.map((t) => (
          <Box key={t.turnId} sx={{ borderLeft: '3px solid #1976d2', pl: 1, my: 1 }}>
            <Typography variant="caption" data-testid="stream-steps">{t.steps.join(' → ')}</Typography>
            <Box sx={{ whiteSpace: 'pre-wrap', fontFamily: 'monospace', fontSize: 13 }} data-testid="stream-text">{t.text}</Box>
          </Box>
        ))}
      </CardContent>
    </Card>
  );
}
