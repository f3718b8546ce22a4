/** Trigger test bench: a conversation (one message per line, the last is answered) → every skill's verdict and why. */
import { useState } from 'react';
import { Alert, Box, Button, Chip, MenuItem, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { Title, useDataProvider } from 'react-admin';
import type { VanceDataProvider } from '../api/dataProvider';
import { messageOf } from '../api/graphql';
import type { SkillVerdict } from '../api/types';
import { LayerChip } from '../common/Chips';
import { useAsync } from '../common/useAsync';

export function TriggerBench() {
  const dp = useDataProvider<VanceDataProvider>();
  const recipes = useAsync((p) => p.recipes(), []);
  const [text, setText] = useState('');
  const [recipe, setRecipe] = useState('');
  const [verdicts, setVerdicts] = useState<SkillVerdict[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setError(null);
    try {
      const messages = text.split('\n').map((l) => l.trim()).filter(Boolean);
      setVerdicts(await dp.skillTriggerTest(messages.length ? messages : [''], recipe || null));
    } catch (err) {
      setVerdicts(null);
      setError(messageOf(err));
    }
  };
  return (
    <Box sx={{ p: 2 }}>
      <Title title="Trigger bench" />
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
      ) : null}
    </Box>
  );
}
