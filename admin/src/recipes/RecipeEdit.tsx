/**
 * One recipe: where it comes from, the whitelist editor (writes the YAML back through putDocument
 * into a chosen layer the caller may write), the YAML itself (document editor), and a resolve preview per profile.
 */
import { useEffect, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { Title, useDataProvider, useNotify } from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import type { VanceDataProvider } from '../api/dataProvider';
import { diagnosticsOf, messageOf } from '../api/graphql';
import type { Layer, ResolvedRecipe } from '../api/types';
import { DiagnosticList } from '../common/CodeEditor';
import { LayerChip, ShadowedChips, Tags } from '../common/Chips';
import { useAsync } from '../common/useAsync';
import { useCan } from '../common/useCan';
import { editPath } from '../layers/LayerList';
import { WhitelistEditor } from './WhitelistEditor';
import { readWhitelist, sameWhitelist, writeWhitelist, type Whitelist, type WhitelistReading } from './whitelist';

export function RecipeEdit() {
  const { id = '' } = useParams();
  const name = decodeURIComponent(id);
  const dp = useDataProvider<VanceDataProvider>();
  const notify = useNotify();
  const can = useCan();
  const loaded = useAsync(async (p) => {
    const recipe = await p.recipe(name);
    const effective = recipe ? await p.effectiveDocument(recipe.path) : null;
    const skills = await p.skills();
    return { recipe, effective, skills: skills.map((s) => s.name) };
  }, [name]);
  // The reading with the document it was read from: a page switching recipes never shows the last one's.
  const [reading, setReading] = useState<(WhitelistReading & { path: string }) | null>(null);
  const [whitelist, setWhitelist] = useState<Whitelist | null>(null);
  const [target, setTarget] = useState<Layer>('PROJECT');
  const [errors, setErrors] = useState<ReturnType<typeof diagnosticsOf>>([]);
  const recipe = loaded.data?.recipe;
  const effective = loaded.data?.effective;

  useEffect(() => {
    if (!effective) return;
    const read = agreeWithServer(readWhitelist(effective.document.content), loaded.data?.recipe ?? null);
    setReading({ ...read, path: effective.document.path });
    setWhitelist(read.whitelist);
    const preferred: Layer = effective.source === 'RESOURCE' ? 'PROJECT' : effective.source;
    setTarget(can.writes(preferred) ? preferred : can.writableLayers.find((l) => l !== 'USER') ?? can.writableLayers[0] ?? preferred);
  }, [effective, can.loaded]);

  if (loaded.error) return <Alert severity="error">{messageOf(loaded.error)}</Alert>;
  if (!loaded.data) return null;
  if (!recipe || !effective) return <Alert severity="warning">No recipe '{name}'</Alert>;

  const save = async () => {
    if (!whitelist || !reading || reading.readOnly) return;
    try {
      const text = writeWhitelist(effective.document.content, whitelist);
      const existing = target === effective.source ? effective.document : await dp.document(target, recipe.path);
      await dp.putDocument(target, recipe.path, text, existing?.version ?? 0);
      setErrors([]);
      notify(`Saved the whitelist of ${name} in the ${target} layer`, { type: 'success' });
      loaded.reload();
    } catch (err) {
      setErrors(diagnosticsOf(err));
      notify(messageOf(err), { type: 'error' });
    }
  };

  return (
    <Box sx={{ p: 2 }}>
      <Title title={`Recipe ${name}`} />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="h5">{recipe.title ?? recipe.name}</Typography>
        <LayerChip layer={recipe.source} size="medium" />
        <ShadowedChips layers={recipe.shadowed} />
        {recipe.locked ? <Typography variant="body2">locked</Typography> : null}
      </Stack>
      <Typography sx={{ my: 1 }}>{recipe.description}</Typography>
      <Stack direction="row" spacing={1} sx={{ mb: 2 }}>
        <Button variant="outlined" component={Link} to={editPath(recipe.source, recipe.path)}>YAML ({recipe.source})</Button>
        <Typography variant="body2" sx={{ alignSelf: 'center' }}>engine {recipe.engine ?? '—'} · category {recipe.category ?? '—'} · {recipe.listed ? 'listed' : 'not listed'}</Typography>
      </Stack>
      <DiagnosticList diagnostics={recipe.diagnostics} />
      <Card variant="outlined" sx={{ mb: 2 }}>
        <CardContent>
          <Typography variant="subtitle1">Skills whitelist</Typography>
          {reading?.readOnly ? <Alert severity="info" sx={{ my: 1 }} data-testid="whitelist-readonly">Read-only here: {reading.readOnly}.</Alert> : null}
          {reading?.notes.map((n) => <Alert key={n} severity="warning" sx={{ my: 1 }} data-testid="whitelist-note">{n}.</Alert>)}
          {whitelist && reading?.path === recipe.path ? <WhitelistEditor recipe={recipe.name} value={whitelist} onChange={setWhitelist} skills={loaded.data.skills} disabled={Boolean(reading?.readOnly)} /> : null}
          <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center' }}>
            {can.writes(target) ? (
              <TextField select size="small" label="Save into layer" value={target} onChange={(e) => setTarget(e.target.value as Layer)} sx={{ minWidth: 180 }}>
                {can.writableLayers.map((l) => <MenuItem key={l} value={l}>{l}</MenuItem>)}
              </TextField>
            ) : null}
            <Button variant="contained" onClick={() => void save()} data-testid="save-whitelist"
              disabled={!can.writes(target) || !whitelist || !reading || Boolean(reading.readOnly) || (sameWhitelist(whitelist, reading.whitelist) && !reading.notes.length && target === effective.source)}>Save whitelist</Button>
            <Typography variant="body2" data-testid="whitelist-current">
              now: {recipe.allowedSkills === null ? 'no restriction' : recipe.allowedSkills.length ? `allowed ${recipe.allowedSkills.join(', ')}` : 'lockdown'}
              {recipe.defaultActiveSkills.length ? ` · default ${recipe.defaultActiveSkills.join(', ')}` : ''}
            </Typography>
          </Stack>
          <DiagnosticList diagnostics={errors} />
        </CardContent>
      </Card>
      <ResolvePreview name={name} profiles={recipe.profiles.map((p) => p.name)} />
    </Box>
  );
}

/**
 * A safety net over readWhitelist: where the server parsed the recipe, the editor must read the same
 * whitelist; if it ever does not, it shows the recipe read-only rather than write its own reading.
 */
function agreeWithServer(reading: WhitelistReading, recipe: { valid: boolean; allowedSkills: string[] | null; defaultActiveSkills: string[] } | null): WhitelistReading {
  if (!recipe?.valid || reading.readOnly) return reading;
  const server: Whitelist = { mode: recipe.allowedSkills === null ? 'none' : recipe.allowedSkills.length ? 'list' : 'lockdown', allowed: recipe.allowedSkills ?? [], defaults: recipe.defaultActiveSkills };
  if (sameWhitelist(server, reading.whitelist)) return reading;
  return { ...reading, readOnly: `the editor reads this recipe's whitelist differently from the server (allowedSkills ${JSON.stringify(recipe.allowedSkills)}); edit it in the YAML` };
}

function ResolvePreview({ name, profiles }: { name: string; profiles: string[] }) {
  const dp = useDataProvider<VanceDataProvider>();
  const [profile, setProfile] = useState('');
  const [resolved, setResolved] = useState<ResolvedRecipe | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    try {
      setError(null);
      setResolved(await dp.resolveRecipe(name, profile || null));
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <Card variant="outlined" data-testid="resolve-preview">
      <CardContent>
        <Typography variant="subtitle1">Resolve preview</Typography>
        <Stack direction="row" spacing={1} sx={{ my: 1 }}>
          <TextField select size="small" label="Profile" value={profile} onChange={(e) => setProfile(e.target.value)} sx={{ minWidth: 180 }}>
            <MenuItem value="">(none)</MenuItem>
            {[...new Set([...profiles, 'foot', 'web', 'mobile'])].map((p) => <MenuItem key={p} value={p}>{p}</MenuItem>)}
          </TextField>
          <Button variant="outlined" onClick={() => void run()} data-testid="resolve-run">Resolve</Button>
        </Stack>
        {error ? <Alert severity="error">{error}</Alert> : null}
        {resolved ? (
          <Stack spacing={1}>
            <div><b>Engine</b> {resolved.engine} · <b>profile</b> {resolved.profile.profile ?? '—'} ({resolved.profile.match}) · <b>prompt mode</b> {resolved.promptMode}
              {resolved.model ? <> · <b>model</b> {resolved.model.provider}:{resolved.model.model} ({resolved.model.tier}; {resolved.model.chain.join(' → ')})</> : null}</div>
            <div><b>Params</b><pre style={{ margin: 0, background: '#f6f6f6', padding: 8 }}>{JSON.stringify(resolved.params, null, 2)}</pre></div>
            <div><b>Tools</b> {resolved.tools.unrestricted ? 'unrestricted' : ''} <Tags items={resolved.tools.allowed} />
              {resolved.tools.deferred.length ? <> deferred <Tags items={resolved.tools.deferred} /></> : null}
              {resolved.tools.removed.length ? <> removed <Tags items={resolved.tools.removed} color="warning" /></> : null}</div>
            <div><b>Skills</b> {resolved.allowedSkills === null ? 'no restriction' : resolved.allowedSkills.length ? `allowed: ${resolved.allowedSkills.join(', ')}` : 'lockdown'} · default active: {resolved.defaultActiveSkills.join(', ') || '—'}</div>
            <div><b>Prompt</b><pre style={{ margin: 0, whiteSpace: 'pre-wrap', background: '#f6f6f6', padding: 8, maxHeight: 320, overflow: 'auto' }}>{resolved.systemPromptPreview ?? resolved.promptTemplate ?? '—'}</pre></div>
            <DiagnosticList diagnostics={resolved.warnings} />
          </Stack>
        ) : null}
      </CardContent>
    </Card>
  );
}
