/**
 * One process: active and open skills as badges (clear one or all, activate one), what the next
 * turn would activate (verdicts, token split), the guards, the inbox, history (turns and chat log),
 * the live turn stream, a message box (sendMessage schedules a turn; a `/skill` line runs skillCommand)
 * and regenerating the last turn.
 */
import { useMemo } from 'react';
import { Alert, Box, Chip, Grid, Stack, Typography } from '@mui/material';
import { Title, useDataProvider, useLogoutIfAccessDenied, useNotify } from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import type { VanceDataProvider } from '../api/dataProvider';
import { messageOf } from '../api/graphql';
import { ops } from '../api/operations';
import type { Process } from '../api/types';
import { useAsync } from '../common/useAsync';
import { activationOutcome, clearOutcome, type Outcome } from './actionOutcome';
import { ActivationPanel } from './ActivationPanel';
import { ActiveSkillsCard } from './ActiveSkillsCard';
import { GuardsPanel } from './GuardsPanel';
import { HistoryCard } from './HistoryCard';
import { LiveStream } from './LiveStream';
import { MessageCard } from './MessageCard';
import type { SkillLineResult } from './SkillCommandOutput';
import { useTurnStream } from './useTurnStream';

/** Events after which the process, its history and the next turn's activation are read again. */
const REFRESH_ON = new Set(['TurnStarted', 'TurnFinished', 'TurnFailed']);

export function ProcessShow() {
  const { id = '' } = useParams();
  const processId = decodeURIComponent(id);
  const dp = useDataProvider<VanceDataProvider>();
  const notify = useNotify();
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  const proc = useAsync((p) => p.process(processId), [processId]);
  const history = useAsync(async (p) => ({ turns: await p.turns(processId), messages: await p.messages(processId) }), [processId]);
  const completions = useAsync((p) => p.skillCompletions(processId), [processId]);
  const activation = useAsync((p) => p.turnActivation(processId), [processId]);
  const refreshAll = () => { proc.reload(); history.reload(); completions.reload(); activation.reload(); };
  const stream = useTurnStream(processId, (e) => { if (REFRESH_ON.has(e.type)) refreshAll(); });
  const turnStatus = useMemo(() => new Map((history.data?.turns ?? []).map((t) => [t.id, t.status])), [history.data]);

  /** Runs a steering action; the toast follows what the API answered (`done` reads the result). */
  const act = async <T,>(what: () => Promise<T>, done?: (result: T) => Outcome | string) => {
    try {
      const result = await what();
      const outcome = done?.(result);
      if (outcome) notify(typeof outcome === 'string' ? outcome : outcome.message, { type: typeof outcome === 'string' ? 'info' : outcome.type });
      refreshAll();
    } catch (err) {
      notify(messageOf(err), { type: 'error' });
    }
  };
  /** A `/skill` line: its refusal is the answer shown on the page (a 401 still logs out). */
  const skillCommand = async (line: string): Promise<SkillLineResult> => {
    try {
      const outcome = await ops.skillCommand(processId, line);
      refreshAll();
      return { line, outcome };
    } catch (err) {
      if ((err as { status?: number }).status === 401) await logoutIfAccessDenied(err);
      return { line, refused: messageOf(err) };
    }
  };
  const p = proc.data;
  if (proc.error) return <Alert severity="error">{messageOf(proc.error)}</Alert>;
  if (!p) return null;
  return (
    <Box sx={{ p: 2 }}>
      <Title title={`Process ${p.name}`} />
      <ProcessHeader process={p} />
      <ActiveSkillsCard process={p} completions={completions.data ?? []} actions={{
        activate: (name, once) => void act(() => dp.activateSkill(p.id, name, once), (r) => activationOutcome(name, r)),
        clear: (name) => void act(() => dp.clearSkills(p.id, name), clearOutcome),
      }} />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <MessageCard process={p} actions={{
            send: (text) => act(() => dp.sendMessage(p.id, text)),
            skillCommand,
            regenerate: () => void act(() => dp.regenerateTurn(p.id), () => 'Regenerating the last turn'),
          }} />
          <LiveStream events={stream.events} status={stream.status} turnStatus={turnStatus} />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <ActivationPanel activation={activation} />
          <GuardsPanel process={p} />
          <HistoryCard turns={history.data?.turns ?? []} messages={history.data?.messages ?? []} />
        </Grid>
      </Grid>
    </Box>
  );
}

function ProcessHeader({ process: p }: { process: Process }) {
  return (
    <>
      <Stack direction="row" spacing={1} useFlexGap sx={{ mb: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Link to="/processes">← processes</Link>
        <Link to={`/processes/${encodeURIComponent(p.id)}/log`} data-testid="activation-log-link">activation log</Link>
        <Typography variant="h5">{p.name}</Typography>
        {p.title && <Typography variant="h6" color="text.secondary" data-testid="process-title">{p.title}</Typography>}
        <Chip size="small" label={p.status} />
        <Typography variant="body2">recipe {p.recipe ?? '—'} ({p.recipeSource ?? '—'}) · engine {p.engine} · session {p.session.name}{p.locked ? ' · locked' : ''}</Typography>
      </Stack>
      {p.goal && <Typography variant="body2" data-testid="process-goal" sx={{ mb: 1, whiteSpace: 'pre-wrap', maxHeight: 160, overflow: 'auto' }}>Goal: {p.goal}</Typography>}
      <Typography variant="body2" sx={{ mb: 1 }}>Allowed skills: {p.allowedSkills === null ? 'no restriction' : p.allowedSkills.length ? p.allowedSkills.join(', ') : 'lockdown'}</Typography>
    </>
  );
}
