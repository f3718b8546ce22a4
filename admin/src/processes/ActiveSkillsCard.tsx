/** Active skills as badges (clear one or all, activate one) beside the skills the model has open. */
import { useState } from 'react';
import { Button, Card, CardContent, Checkbox, FormControlLabel, MenuItem, Stack, TextField, Typography } from '@mui/material';
import type { Process } from '../api/types';
import { OpenSkillBadges } from './OpenSkillBadges';
import { SkillBadges } from './SkillBadges';

export interface SkillActions {
  activate: (name: string, once: boolean) => void;
  clear: (name?: string) => void;
}

export function ActiveSkillsCard({ process, completions, actions }: { process: Process; completions: readonly string[]; actions: SkillActions }) {
  const [skill, setSkill] = useState('');
  const [once, setOnce] = useState(false);
  return (
    <Card variant="outlined" sx={{ mb: 2 }}>
      <CardContent>
        <Typography variant="subtitle1">Active skills</Typography>
        <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
          <SkillBadges skills={process.activeSkills} onClear={(name) => actions.clear(name)} />
          <OpenSkillBadges skills={process.openSkills} />
        </Stack>
        <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center' }}>
          <TextField select size="small" label="Skill" value={skill} onChange={(e) => setSkill(e.target.value)} sx={{ minWidth: 200 }}>
            {completions.map((s) => <MenuItem key={s} value={s}>{s}</MenuItem>)}
          </TextField>
          <FormControlLabel control={<Checkbox checked={once} onChange={(e) => setOnce(e.target.checked)} />} label="once" />
          <Button variant="outlined" disabled={!skill} onClick={() => actions.activate(skill, once)} data-testid="activate-skill">Activate</Button>
          <Button color="warning" onClick={() => actions.clear()} data-testid="clear-skills">Clear all</Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
