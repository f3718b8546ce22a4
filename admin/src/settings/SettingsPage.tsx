/**
 * Settings: model aliases (`ai.alias.<prefix>.<name>`, seed 004 §11a) and providers (`ai.<provider>.*`;
 * keys are write-only and shown masked), every setting of the tenant or project; users, projects
 * and members live in PeopleSettings. Tenant settings change only with WRITE_TENANT_LAYER, a
 * project's with WRITE_PROJECT_LAYER (Project.myPermissions); without it the forms are disabled.
 */
import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Checkbox, FormControlLabel, MenuItem, Stack, Tab, Table, TableBody, TableCell, TableHead, TableRow, Tabs, TextField, Typography } from '@mui/material';
import { Title, useDataProvider, useNotify } from 'react-admin';
import type { VanceDataProvider } from '../api/dataProvider';
import { messageOf } from '../api/graphql';
import type { Setting } from '../api/types';
import { useAsync, useProject } from '../common/useAsync';
import { useCan } from '../common/useCan';
import { PeopleSettings } from './PeopleSettings';

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
      {tab === 'models' ? <ModelSettings /> : tab === 'all' ? <AllSettings /> : <PeopleSettings />}
    </Box>
  );
}

/** The scope picked (null: the tenant), its setter, the selected project, and whether the caller may write that scope. */
function useScope(): [string | null, (v: string | null) => void, string | null, boolean] {
  const project = useProject();
  const can = useCan();
  const [scope, setScope] = useState<'tenant' | 'project'>('tenant');
  const writable = can.writes(scope === 'tenant' ? 'VANCE' : 'PROJECT');
  return [scope === 'tenant' ? null : project, (v) => setScope(v ? 'project' : 'tenant'), project, writable];
}

function ReadOnlyNote({ scope }: { scope: string | null }) {
  return <Alert severity="info" data-testid="settings-read-only">{scope ? `Only admins of ${scope} change its settings.` : 'Only tenant admins change tenant settings.'}</Alert>;
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
  const [scope, setScope, project, writable] = useScope();
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
      {writable ? null : <ReadOnlyNote scope={scope} />}
      <Card variant="outlined">
        <CardContent>
          <Typography variant="subtitle1">Model aliases</Typography>
          <Typography variant="body2" color="text.secondary">A recipe's <code>params.model: default:deep</code> follows <code>ai.alias.default.deep</code>; without one, <code>default:*</code> falls back to ai.default.provider / ai.default.model.</Typography>
          <Stack direction="row" spacing={1} sx={{ my: 1 }}>
            <TextField size="small" label="Alias" value={alias} onChange={(e) => setAlias(e.target.value)} />
            <TextField size="small" label="provider:model" value={aliasTarget} onChange={(e) => setAliasTarget(e.target.value)} />
            <Button variant="contained" disabled={!writable || !alias.includes(':')} onClick={() => void put(aliasKey(alias), aliasTarget.trim() || null)} data-testid="save-alias">Save alias</Button>
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
            <Button variant="contained" disabled={!writable || !apiKey} onClick={() => void put(`ai.${provider}.apiKey`, apiKey, true).then(() => setApiKey(''))} data-testid="save-provider-key">Save key</Button>
            <TextField size="small" label="Base URL" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} />
            <Button variant="outlined" disabled={!writable} onClick={() => void put(`ai.${provider}.baseUrl`, baseUrl.trim() || null)}>Save URL</Button>
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
  const [scope, setScope, project, writable] = useScope();
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
      {writable ? null : <ReadOnlyNote scope={scope} />}
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <TextField size="small" label="Key" value={key} onChange={(e) => setKey(e.target.value)} />
        <TextField size="small" label="Value" type={secret ? 'password' : 'text'} value={value} onChange={(e) => setValue(e.target.value)} />
        <FormControlLabel control={<Checkbox checked={secret} onChange={(e) => setSecret(e.target.checked)} />} label="secret" />
        <Button variant="contained" disabled={!writable || !key.trim()} onClick={() => void save(false)}>Save</Button>
        <Button color="error" disabled={!writable || !key.trim()} onClick={() => void save(true)}>Remove</Button>
      </Stack>
      <SettingsTable rows={settings.data ?? []} />
    </Stack>
  );
}
