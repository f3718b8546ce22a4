import { MenuItem, TextField } from '@mui/material';
import { useRefresh } from 'react-admin';
import { session } from '../api/session';
import { useAsync, useProject } from '../common/useAsync';

/** The project every page works in (kept in localStorage); switching refreshes every query. */
export function ProjectSwitcher() {
  const project = useProject();
  const refresh = useRefresh();
  const projects = useAsync((dp) => dp.projects(), []);
  const names = (projects.data ?? []).map((p) => p.name);
  if (project && !names.includes(project)) names.unshift(project);
  return (
    <TextField
      select
      size="small"
      label="Project"
      value={project ?? ''}
      onChange={(e) => { session.setProject(e.target.value || null); refresh(); }}
      sx={{ flex: '0 0 240px', background: 'white', borderRadius: 1, mx: 1 }}
      slotProps={{ select: { inputProps: { 'data-testid': 'project-switcher' } } }}
    >
      {names.map((n) => <MenuItem key={n} value={n}>{n}</MenuItem>)}
    </TextField>
  );
}
