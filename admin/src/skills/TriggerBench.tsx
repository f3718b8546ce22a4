/**
 * Trigger test bench: a conversation (one message per line, the last is answered) → every skill's
 * verdict and why; the "evals" tab runs a skill's evals.yaml (issue 20) and shows failures and
 * confusions, and the conversation under test can be saved as a new case of a skill's evals.
 */
import { useState } from 'react';
import { Alert, Box, Button, Checkbox, Chip, FormControlLabel, MenuItem, Tab, Table, TableBody, TableCell, TableHead, TableRow, Tabs, TextField, Typography } from '@mui/material';
import { Title, useDataProvider } from 'react-admin';
import type { VanceDataProvider } from '../api/dataProvider';
import { messageOf } from '../api/graphql';
import { WRITABLE_LAYERS, type Layer, type SkillEvalReport, type SkillVerdict } from '../api/types';
import { LayerChip } from '../common/Chips';
import { useAsync } from '../common/useAsync';
import { EvalReport } from './EvalReport';

export function TriggerBench() {
  const dp = useDataProvider<VanceDataProvider>();
  const recipes = useAsync((p) => p.recipes(), []);
  const skills = useAsync((p) => p.skills(), []);
  const [tab, setTab] = useState<'conversation' | 'evals'>('conversation');
  const [text, setText] = useState('');
  const [recipe, setRecipe] = useState('');
  const [verdicts, setVerdicts] = useState<SkillVerdict[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [skill, setSkill] = useState('');
  const [fires, setFires] = useState('true');
  const [layer, setLayer] = useState<Layer>('PROJECT');
  const [report, setReport] = useState<SkillEvalReport | null>(null);
  const [models, setModels] = useState(false);
  const messages = () => text.split('\n').map((l) => l.trim()).filter(Boolean);
  const attempt = async (work: () => Promise<void>) => {
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const run = () => attempt(async () => {
    setVerdicts(null);
    const list = messages();
    setVerdicts(await dp.skillTriggerTest(list.length ? list : [''], recipe || null));
  });
  const runEvals = () => attempt(async () => {
    setReport(null);
    setReport(await dp.skillEvals(skill, models));
  });
  const saveCase = () => attempt(async () => {
    setReport(await dp.addSkillEvalCase(layer, skill, messages(), fires === 'true', recipe || null));
    setTab('evals');
  });
  const skillPicker = (
    <TextField select size="small" label="Skill" value={skill} onChange={(e) => setSkill(e.target.value)} sx={{ minWidth: 240 }}
      slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'eval-skill' }, inputLabel: { shrink: true } }}>
      <option value="">(choose a skill)</option>
      {(skills.data ?? []).map((s) => <option key={s.name} value={s.name}>{s.name}</option>)}
    </TextField>
  );
  return (
    <Box sx={{ p: 2 }}>
      <Title title="Trigger bench" />
      <Tabs value={tab} onChange={(_e, v: 'conversation' | 'evals') => { setTab(v); setError(null); }} sx={{ mb: 2 }}>
        <Tab value="conversation" label="Conversation" data-testid="tab-conversation" />
        <Tab value="evals" label="Evals" data-testid="tab-evals" />
      </Tabs>
      {tab === 'conversation' ? (
        <>
          <Typography variant="body2" sx={{ mb: 1 }}>Type a conversation, one message per line (the last line is the message being answered), and see which skills would fire and why.</Typography>
          <TextField multiline minRows={3} fullWidth label="Messages" value={text} onChange={(e) => setText(e.target.value)} slotProps={{ htmlInput: { 'data-testid': 'bench-messages' } }} />
          <Box sx={{ display: 'flex', gap: 2, my: 2 }}>
            <TextField select size="small" label="Recipe whitelist" value={recipe} onChange={(e) => setRecipe(e.target.value)} sx={{ minWidth: 240 }}>
              <MenuItem value="">(no recipe)</MenuItem>
              {(recipes.data ?? []).map((r) => <MenuItem key={r.name} value={r.name}>{r.name}</MenuItem>)}
            </TextField>
            <Button variant="contained" onClick={() => void run()} data-testid="bench-run">Test</Button>
          </Box>
          {error ? <Alert severity="error">{error}</Alert> : null}
          {verdicts ? (
            <>
              <Table size="small" data-testid="verdicts">
                <TableHead><TableRow><TableCell>Skill</TableCell><TableCell>Fires</TableCell><TableCell>Why</TableCell><TableCell>When</TableCell><TableCell>Source</TableCell></TableRow></TableHead>
                <TableBody>
                  {[...verdicts].sort((a, b) => Number(b.on) - Number(a.on)).map((v) => (
                    <TableRow key={v.skill} data-on={v.on}>
                      <TableCell>{v.skill}</TableCell>
                      <TableCell><Chip size="small" label={v.on ? 'on' : 'off'} color={v.on ? 'success' : 'default'} /></TableCell>
                      <TableCell>{v.reason}</TableCell>
                      <TableCell>{v.when ?? '—'}</TableCell>
                      <TableCell><LayerChip layer={v.source} /></TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
              <Typography variant="subtitle2" sx={{ mt: 3, mb: 1 }}>Save this conversation as an eval case</Typography>
              <Box sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
                {skillPicker}
                <TextField select size="small" label="Expect" value={fires} onChange={(e) => setFires(e.target.value)}
                  slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'eval-fires' }, inputLabel: { shrink: true } }}>
                  <option value="true">fires</option>
                  <option value="false">does not fire</option>
                </TextField>
                <TextField select size="small" label="Layer" value={layer} onChange={(e) => setLayer(e.target.value as Layer)}
                  slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'eval-layer' }, inputLabel: { shrink: true } }}>
                  {WRITABLE_LAYERS.map((l) => <option key={l} value={l}>{l}</option>)}
                </TextField>
                <Button variant="outlined" disabled={!skill} onClick={() => void saveCase()} data-testid="eval-save">Save as case</Button>
              </Box>
            </>
          ) : null}
        </>
      ) : (
        <>
          <Typography variant="body2" sx={{ mb: 1 }}>Run a skill's evals.yaml against this project's skills: each case with the verdict a turn would give, precision and recall of its triggers, and the other skills that fire on its positive messages.</Typography>
          <Box sx={{ display: 'flex', gap: 2, my: 2 }}>
            {skillPicker}
            <FormControlLabel control={<Checkbox checked={models} onChange={(e) => setModels(e.target.checked)} />} label="Ask the model for picked: cases (paid calls)" />
            <Button variant="contained" disabled={!skill} onClick={() => void runEvals()} data-testid="eval-run">Run evals</Button>
          </Box>
          {error ? <Alert severity="error">{error}</Alert> : null}
          {report ? <EvalReport report={report} /> : null}
        </>
      )}
    </Box>
  );
}
