/**
 * Settings: model aliases (`ai.alias.<prefix>.<name>`, seed 004 §11a) and providers (`ai.<provider>.*`;
 * keys are write-only and shown masked), every setting of the tenant or project, then users,
 * projects and members.
 */
import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Checkbox, FormControlLabel, MenuItem, Stack, Tab, Table, TableBody, TableCell, TableHead, TableRow, Tabs, TextField, Typography } from '@mui/material';
import { Title, useDataProvider, useNotify } from 'react-admin';
import type { VanceDataProvider } from '../api/dataProvider';
import { messageOf } from '../api/graphql';
import type { Setting } from '../api/types';
import { useAsync, useProject } from '../common/useAsync';

const PROVIDERS = ['openai', 'anthropic', 'google', 'ollama', 'openai-compatible', 'lmstudio', 'offline'];
export const MASK = '••••••••';
export const shown = (s: Pick<Setting, 'secret' | 'hasValue' | 'value'>) => (s.secret ? (s.hasValue ? MASK : '(not set)') : s.value ?? '(not set)');

export function SettingsPage() {
  const [tab, setTab] = useState('models');
  return (
    <Box sx={{ p: 2 }}>
      <Title title="Settings" />
      <Tabs value={tab} onChange={(_e, v: string) => setTab(v)} sx={{ mb: 2 }}>
        <Tab value="models" label="Models" />
        <Tab value="all" label="All settings" />
        <Tab value="people" label="Users, projects, members" />
      </Tabs>
      {tab === 'models' ? <ModelSettings /> : tab === 'all' ? <AllSettings /> : <People />}
    </Box>
  );
}

function useScope(): [string | null, (v: string | null) => void, string | null] {
  const project = useProject();
  const [scope, setScope] = useState<'tenant' | 'project'>('tenant');
  return [scope === 'tenant' ? null : project, (v) => setScope(v ? 'project' : 'tenant'), project];
}

function ScopeSelect({ value, onChange, project }: { value: string | null; onChange: (v: string | null) => void; project: string | null }) {
  return (
    <TextField select size="small" label="Scope" value={value ? 'project' : 'tenant'} onChange={(e) => onChange(e.target.value === 'project' ? project : null)} sx={{ minWidth: 200 }}>
      <MenuItem value="tenant">tenant</MenuItem>
      {project ? <MenuItem value="project">project {project}</MenuItem> : null}
    </TextField>
  );
}

function SettingsTable({ rows }: { rows: Omit<Setting, 'id'>[] }) {
  return (
    <Table size="small" data-testid="settings-table">
      <TableHead><TableRow><TableCell>Key</TableCell><TableCell>Value</TableCell><TableCell>Source</TableCell><TableCell>Updated</TableCell></TableRow></TableHead>
      <TableBody>
        {rows.map((s) => (
          <TableRow key={s.key} data-key={s.key}>
            <TableCell sx={{ fontFamily: 'monospace' }}>{s.key}</TableCell>
            <TableCell>{shown(s)}</TableCell>
            <TableCell>{s.source ?? '—'}</TableCell>
            <TableCell>{s.updatedAt ? new Date(s.updatedAt).toLocaleString() : '—'}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function ModelSettings() {
  const dp = useDataProvider<VanceDataProvider>();
  const notify = useNotify();
  const [scope, setScope, project] = useScope();
  const settings = useAsync((p) => p.settings(scope), [scope]);
  const [alias, setAlias] = useState('default:deep');
  const [aliasTarget, setAliasTarget] = useState('');
  const [provider, setProvider] = useState('openai');
  const [apiKey, setApiKey] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const put = async (key: string, value: string | null, secret = false) => {
    try {
      await dp.putSetting(key, value, scope, secret);
      notify(`Saved ${key}`, { type: 'success' });
      settings.reload();
    } catch (err) {
      notify(messageOf(err), { type: 'error' });
    }
  };
  const rows = settings.data ?? [];
  const aliasKey = (a: string) => `ai.alias.${a.replace(':', '.')}`;
  return (
    <Stack spacing={2}>
      <ScopeSelect value={scope} onChange={setScope} project={project} />
      <Card variant="outlined">
        <CardContent>
          <Typography variant="subtitle1">Model aliases</Typography>
          <Typography variant="body2" color="text.secondary">A recipe's <code>params.model: default:deep</code> follows <code>ai.alias.default.deep</code>; without one, <code>default:*</code> falls back to ai.default.provider / ai.default.model.</Typography>
          <Stack direction="row" spacing={1} sx={{ my: 1 }}>
            <TextField size="small" label="Alias" value={alias} onChange={(e) => setAlias(e.target.value)} />
            <TextField size="small" label="provider:model" value={aliasTarget} onChange={(e) => setAliasTarget(e.target.value)} />
            <Button variant="contained" disabled={!alias.includes(':')} onClick={() => void put(aliasKey(alias), aliasTarget.trim() || null)} data-testid="save-alias">Save alias</Button>
          </Stack>
          <SettingsTable rows={rows.filter((s) => s.key.startsWith('ai.alias.') || s.key.startsWith('ai.default.'))} />
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="subtitle1">Providers</Typography>
          <Stack direction="row" spacing={1} sx={{ my: 1 }}>
            <TextField select size="small" label="Provider" value={provider} onChange={(e) => setProvider(e.target.value)} sx={{ minWidth: 180 }}>
              {PROVIDERS.map((p) => <MenuItem key={p} value={p}>{p}</MenuItem>)}
            </TextField>
            <TextField size="small" type="password" label="API key (write-only)" value={apiKey} onChange={(e) => setApiKey(e.target.value)} autoComplete="new-password" slotProps={{ htmlInput: { 'data-testid': 'provider-key' } }} />
            <Button variant="contained" disabled={!apiKey} onClick={() => void put(`ai.${provider}.apiKey`, apiKey, true).then(() => setApiKey(''))} data-testid="save-provider-key">Save key</Button>
            <TextField size="small" label="Base URL" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} />
            <Button variant="outlined" onClick={() => void put(`ai.${provider}.baseUrl`, baseUrl.trim() || null)}>Save URL</Button>
          </Stack>
          <SettingsTable rows={rows.filter((s) => /^ai\.(?!alias\.|default\.)/.test(s.key))} />
        </CardContent>
      </Card>
    </Stack>
  );
}

function AllSettings() {
  const dp = useDataProvider<VanceDataProvider>();
  const notify = useNotify();
  const [scope, setScope, project] = useScope();
  const settings = useAsync((p) => p.settings(scope), [scope]);
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [secret, setSecret] = useState(false);
  const save = async (remove: boolean) => {
    try {
      await dp.putSetting(key.trim(), remove ? null : value, scope, secret);
      notify(`${remove ? 'Removed' : 'Saved'} ${key}`, { type: 'success' });
      setValue('');
      settings.reload();
    } catch (err) {
      notify(messageOf(err), { type: 'error' });
    }
  };
  return (
    <Stack spacing={2}>
      <ScopeSelect value={scope} onChange={setScope} project={project} />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <TextField size="small" label="Key" value={key} onChange={(e) => setKey(e.target.value)} />
        <TextField size="small" label="Value" type={secret ? 'password' : 'text'} value={value} onChange={(e) => setValue(e.target.value)} />
        <FormControlLabel control={<Checkbox checked={secret} onChange={(e) => setSecret(e.target.checked)} />} label="secret" />
        <Button variant="contained" disabled={!key.trim()} onClick={() => void save(false)}>Save</Button>
        <Button color="error" disabled={!key.trim()} onClick={() => void save(true)}>Remove</Button>
      </Stack>
      <SettingsTable rows={settings.data ?? []} />
    </Stack>
  );
}

function People() {
  const dp = useDataProvider<VanceDataProvider>();
  const notify = useNotify();
  const projects = useAsync((p) => p.projects(), []);
  const [login, setLogin] = useState('');
  const [role, setRole] = useState('MEMBER');
  const [created, setCreated] = useState<{ login: string; token: string } | null>(null);
  const [projectName, setProjectName] = useState('');
  const [member, setMember] = useState({ project: '', login: '', role: 'MEMBER' });
  const run = async (what: () => Promise<unknown>, done: string) => {
    try {
      await what();
      notify(done, { type: 'success' });
      projects.reload();
    } catch (err) {
      notify(messageOf(err), { type: 'error' });
    }
  };
  return (
    <Stack spacing={2}>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="subtitle1">Users</Typography>
          <Stack direction="row" spacing={1} sx={{ my: 1 }}>
            <TextField size="small" label="Login" value={login} onChange={(e) => setLogin(e.target.value)} />
            <TextField select size="small" label="Role" value={role} onChange={(e) => setRole(e.target.value)} sx={{ minWidth: 160 }}>
              {['MEMBER', 'TENANT_ADMIN'].map((r) => <MenuItem key={r} value={r}>{r}</MenuItem>)}
            </TextField>
            <Button variant="contained" disabled={!login.trim()} onClick={() => void run(async () => {
              const r = await dp.createUser(login.trim(), role);
              setCreated({ login: r.user.login, token: r.token });
              setLogin('');
            }, 'User created')}>Create user</Button>
          </Stack>
          {created ? <Alert severity="info">Token of <b>{created.login}</b> (shown once): <code>{created.token}</code></Alert> : null}
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="subtitle1">Projects</Typography>
          <Stack direction="row" spacing={1} sx={{ my: 1 }}>
            <TextField size="small" label="New project" value={projectName} onChange={(e) => setProjectName(e.target.value)} />
            <Button variant="contained" disabled={!projectName.trim()} onClick={() => void run(() => dp.createProject(projectName.trim()).then(() => setProjectName('')), 'Project created')}>Create project</Button>
          </Stack>
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
            <TextField select size="small" label="Project" value={member.project} onChange={(e) => setMember({ ...member, project: e.target.value })} sx={{ minWidth: 180 }}>
              {(projects.data ?? []).filter((p) => p.kind === 'NORMAL').map((p) => <MenuItem key={p.id} value={p.name}>{p.name}</MenuItem>)}
            </TextField>
            <TextField size="small" label="Login" value={member.login} onChange={(e) => setMember({ ...member, login: e.target.value })} />
            <TextField select size="small" label="Role" value={member.role} onChange={(e) => setMember({ ...member, role: e.target.value })} sx={{ minWidth: 140 }}>
              {['MEMBER', 'ADMIN'].map((r) => <MenuItem key={r} value={r}>{r}</MenuItem>)}
            </TextField>
            <Button variant="contained" disabled={!member.project || !member.login.trim()} onClick={() => void run(() => dp.addProjectMember(member.project, member.login.trim(), member.role), `Added ${member.login}`)}>Add member</Button>
          </Stack>
          <Typography variant="body2" color="text.secondary">The API has no query listing users or members yet; this form adds them.</Typography>
        </CardContent>
      </Card>
    </Stack>
  );
}
