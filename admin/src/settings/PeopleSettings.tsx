/**
 * Settings → users, projects and members (issue 7): each list next to its create form, reloaded
 * after every change. What the lists hold is the API's rule (`users`: everyone for tenant admins,
 * oneself otherwise; `projectMembers`: members and tenant admins), not the page's. The create forms
 * show only with ADMINISTER_TENANT, "Add member" only for a project that lists MANAGE_MEMBERS.
 */
import { useState } from 'react';
import { Alert, Button, Card, CardContent, MenuItem, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useDataProvider, useNotify } from 'react-admin';
import type { VanceDataProvider } from '../api/dataProvider';
import { messageOf } from '../api/graphql';
import { useAsync, useProject } from '../common/useAsync';
import { useCan } from '../common/useCan';

export function PeopleSettings() {
  const dp = useDataProvider<VanceDataProvider>();
  const notify = useNotify();
  const current = useProject();
  const can = useCan();
  const projects = useAsync((p) => p.projects(), []);
  const users = useAsync((p) => p.users(), []);
  const [login, setLogin] = useState('');
  const [role, setRole] = useState('MEMBER');
  const [created, setCreated] = useState<{ login: string; token: string } | null>(null);
  const [projectName, setProjectName] = useState('');
  const [member, setMember] = useState({ project: '', login: '', role: 'MEMBER' });
  const normalProjects = (projects.data ?? []).filter((p) => p.kind === 'NORMAL');
  // Until one is picked, the members list shows the project chosen in the top bar (when it has members).
  const memberProject = member.project || (normalProjects.some((p) => p.name === current) ? current ?? '' : '');
  const members = useAsync((p) => (memberProject ? p.projectMembers(memberProject) : Promise.resolve([])), [memberProject]);
  const managesMembers = normalProjects.some((p) => p.name === memberProject && p.myPermissions.includes('MANAGE_MEMBERS'));
  const run = async (what: () => Promise<unknown>, done: string) => {
    try {
      await what();
      notify(done, { type: 'success' });
    } catch (err) {
      notify(messageOf(err), { type: 'error' });
    } finally {
      projects.reload();
      users.reload();
      members.reload();
    }
  };
  return (
    <Stack spacing={2}>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="subtitle1">Users</Typography>
          {can.has('ADMINISTER_TENANT') && <Stack direction="row" spacing={1} sx={{ my: 1 }} data-testid="create-user-form">
            <TextField size="small" label="Login" value={login} onChange={(e) => setLogin(e.target.value)} />
            <TextField select size="small" label="Role" value={role} onChange={(e) => setRole(e.target.value)} sx={{ minWidth: 160 }}>
              {['MEMBER', 'TENANT_ADMIN'].map((r) => <MenuItem key={r} value={r}>{r}</MenuItem>)}
            </TextField>
            <Button variant="contained" disabled={!login.trim()} onClick={() => void run(async () => {
              const r = await dp.createUser(login.trim(), role);
              setCreated({ login: r.user.login, token: r.token });
              setLogin('');
            }, 'User created')}>Create user</Button>
          </Stack>}
          {created ? <Alert severity="info">Token of <b>{created.login}</b> (shown once): <code>{created.token}</code></Alert> : null}
          <Table size="small" data-testid="users-table">
            <TableHead><TableRow><TableCell>Login</TableCell><TableCell>Role</TableCell><TableCell>Created</TableCell></TableRow></TableHead>
            <TableBody>
              {(users.data ?? []).map((u) => (
                <TableRow key={u.id} data-login={u.login}><TableCell>{u.login}</TableCell><TableCell>{u.role}</TableCell><TableCell>{new Date(u.createdAt).toLocaleString()}</TableCell></TableRow>
              ))}
            </TableBody>
          </Table>
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="subtitle1">Projects</Typography>
          {can.has('ADMINISTER_TENANT') && <Stack direction="row" spacing={1} sx={{ my: 1 }} data-testid="create-project-form">
            <TextField size="small" label="New project" value={projectName} onChange={(e) => setProjectName(e.target.value)} />
            <Button variant="contained" disabled={!projectName.trim()} onClick={() => void run(() => dp.createProject(projectName.trim()).then(() => setProjectName('')), 'Project created')}>Create project</Button>
          </Stack>}
          <Table size="small">
            <TableHead><TableRow><TableCell>Name</TableCell><TableCell>Kind</TableCell><TableCell>My role</TableCell><TableCell>Created</TableCell></TableRow></TableHead>
            <TableBody>
              {(projects.data ?? []).map((p) => (
                <TableRow key={p.id}><TableCell>{p.name}</TableCell><TableCell>{p.kind}</TableCell><TableCell>{p.myRole ?? '—'}</TableCell><TableCell>{new Date(p.createdAt).toLocaleString()}</TableCell></TableRow>
              ))}
            </TableBody>
          </Table>
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="subtitle1">Members</Typography>
          <Stack direction="row" spacing={1} sx={{ my: 1 }}>
            <TextField select size="small" label="Project" value={memberProject} onChange={(e) => setMember({ ...member, project: e.target.value })} sx={{ minWidth: 180 }}>
              {normalProjects.map((p) => <MenuItem key={p.id} value={p.name}>{p.name}</MenuItem>)}
            </TextField>
            <TextField size="small" label="Login" value={member.login} onChange={(e) => setMember({ ...member, login: e.target.value })} />
            <TextField select size="small" label="Role" value={member.role} onChange={(e) => setMember({ ...member, role: e.target.value })} sx={{ minWidth: 140 }}>
              {['MEMBER', 'ADMIN'].map((r) => <MenuItem key={r} value={r}>{r}</MenuItem>)}
            </TextField>
            <Button variant="contained" disabled={!managesMembers || !member.login.trim()} data-testid="add-member" onClick={() => void run(() => dp.addProjectMember(memberProject, member.login.trim(), member.role), `Added ${member.login}`)}>Add member</Button>
          </Stack>
          {memberProject ? (
            <Table size="small" data-testid="members-table">
              <TableHead><TableRow><TableCell>Login</TableCell><TableCell>Role</TableCell></TableRow></TableHead>
              <TableBody>
                {(members.data ?? []).map((m) => (
                  <TableRow key={m.login} data-login={m.login}><TableCell>{m.login}</TableCell><TableCell>{m.role}</TableCell></TableRow>
                ))}
              </TableBody>
            </Table>
          ) : <Typography variant="body2" color="text.secondary">Pick a project to see its members.</Typography>}
          {members.error ? <Alert severity="error">{messageOf(members.error)}</Alert> : null}
        </CardContent>
      </Card>
    </Stack>
  );
}
