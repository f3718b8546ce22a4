/** Processes of the selected project, with their active skills as badges; spawn a new one. */
import { useState } from 'react';
import { Box, Button, MenuItem, Stack, TextField } from '@mui/material';
import { Datagrid, FunctionField, List, TextField as RaTextField, TopToolbar, useDataProvider, useNotify } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { VanceDataProvider } from '../api/dataProvider';
import { messageOf } from '../api/graphql';
import { session } from '../api/session';
import type { Process } from '../api/types';
import { useAsync } from '../common/useAsync';
import { SkillBadges } from './SkillBadges';

function SpawnForm() {
  const dp = useDataProvider<VanceDataProvider>();
  const notify = useNotify();
  const navigate = useNavigate();
  const recipes = useAsync((p) => p.recipes(), []);
  const [recipe, setRecipe] = useState('');
  const [name, setName] = useState('');
  const spawn = async () => {
    const project = session.project();
    if (!project) return notify('Choose a project first', { type: 'warning' });
    try {
      const p = await dp.spawnProcess({ project, recipe: recipe || null, name: name.trim() || null });
      navigate(`/processes/${encodeURIComponent(p.id)}/show`);
    } catch (err) {
      notify(messageOf(err), { type: 'error' });
    }
  };
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <TextField select size="small" label="Recipe" value={recipe} onChange={(e) => setRecipe(e.target.value)} sx={{ minWidth: 180 }} data-testid="spawn-recipe">
        <MenuItem value="">(default)</MenuItem>
        {(recipes.data ?? []).map((r) => <MenuItem key={r.name} value={r.name}>{r.name}</MenuItem>)}
      </TextField>
      <TextField size="small" label="Name (optional)" value={name} onChange={(e) => setName(e.target.value)} />
      <Button variant="contained" onClick={() => void spawn()} data-testid="spawn-process">Spawn</Button>
    </Stack>
  );
}

const ProcessEmpty = () => <Box sx={{ p: 2 }}><SpawnForm /></Box>;

export const ProcessList = () => (
  <List actions={<TopToolbar><SpawnForm /></TopToolbar>} empty={<ProcessEmpty />} perPage={100} pagination={false} sort={{ field: 'createdAt', order: 'DESC' }}>
    <Datagrid rowClick="show" bulkActionButtons={false}>
      <RaTextField source="name" />
      <RaTextField source="recipe" emptyText="—" />
      <RaTextField source="engine" />
      <RaTextField source="status" />
      <FunctionField<Process> label="Active skills" render={(p) => <SkillBadges skills={p.activeSkills} />} />
      <FunctionField<Process> label="Inbox" render={(p) => p.pending.length} />
      <FunctionField<Process> label="Created" render={(p) => new Date(p.createdAt).toLocaleString()} />
    </Datagrid>
  </List>
);

