/**
 * One skill: what the cascade resolved and its policy. "Override in …" copies the skill's document
 * subtree (SKILL.md and its references/scripts) from the layer it comes from into an inner layer
 * (seed 000 §8), then opens the copy in the editor. Only layers the caller may write are offered
 * (Project.myPermissions); a refusal still possible (permissions changed meanwhile) is an error.
 */
import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { Title, useDataProvider, useNotify } from 'react-admin';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { VanceDataProvider } from '../api/dataProvider';
import { messageOf } from '../api/graphql';
import { LAYERS, WRITABLE_LAYERS, type Layer, type Skill } from '../api/types';
import { DiagnosticList } from '../common/CodeEditor';
import { LayerChip, ShadowedChips, Tags } from '../common/Chips';
import { useAsync } from '../common/useAsync';
import { useCan } from '../common/useCan';
import { editPath } from '../layers/LayerList';
import { policyFlags, triggerText } from './SkillList';

/** Layers inner than `source` that may hold an override (USER is innermost). */
export const innerLayers = (source: Layer) => WRITABLE_LAYERS.filter((l) => LAYERS.indexOf(l) < LAYERS.indexOf(source));

export async function overrideSkill(dp: VanceDataProvider, skill: Pick<Skill, 'path' | 'source'>, target: Layer): Promise<void> {
  const folder = skill.path.slice(0, skill.path.lastIndexOf('/') + 1);
  const docs = await dp.documents(skill.source, folder);
  const files = docs.length ? docs : [await dp.document(skill.source, skill.path)].filter((d) => d !== null);
  for (const doc of files) {
    const existing = await dp.document(target, doc.path);
    await dp.putDocument(target, doc.path, doc.content, existing?.version ?? 0);
  }
}

export function SkillShow() {
  const { id = '' } = useParams();
  const name = decodeURIComponent(id);
  const dp = useDataProvider<VanceDataProvider>();
  const notify = useNotify();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const can = useCan();
  const loaded = useAsync((p) => p.skill(name), [name]);
  const skill = loaded.data;
  if (loaded.error) return <Alert severity="error">{messageOf(loaded.error)}</Alert>;
  if (!skill) return null;
  const override = async (target: Layer) => {
    setBusy(true);
    try {
      await overrideSkill(dp, skill, target);
      notify(`Copied ${skill.name} into the ${target} layer`, { type: 'success' });
      navigate(editPath(target, skill.path));
    } catch (err) {
      notify(messageOf(err), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ p: 2 }}>
      <Title title={`Skill ${skill.name}`} />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="h5">{skill.title ?? skill.name}</Typography>
        <LayerChip layer={skill.source} size="medium" />
        <ShadowedChips layers={skill.shadowed} />
        <Typography variant="body2" data-testid="skill-status">{skill.status}</Typography>
      </Stack>
      <Typography sx={{ my: 1 }}>{skill.description}</Typography>
      <Stack direction="row" spacing={1} sx={{ my: 2 }}>
        <Button variant="contained" component={Link} to={editPath(skill.source, skill.path)}>{can.writes(skill.source) ? 'Edit' : 'View'} SKILL.md ({skill.source})</Button>
        {innerLayers(skill.source).filter(can.writes).map((l) => (
          <Button key={l} variant="outlined" disabled={busy} onClick={() => void override(l)} data-testid={`override-${l}`}>Override in {l.toLowerCase()}</Button>
        ))}
      </Stack>
      <Card variant="outlined">
        <CardContent>
          <Stack spacing={1}>
            <div><b>Path</b> <code>{skill.path}</code> (version {skill.documentVersion})</div>
            <div><b>Lifecycle</b> {skill.lifecycle ?? 'sticky'} · <b>run</b> {skill.run ? `${skill.run.target}${skill.run.recipe ? ` (${skill.run.recipe})` : ''}` : 'inline'} · <b>arguments</b> {skill.argumentsMode}</div>
            <div><b>Invocable by</b> <Tags items={policyFlags(skill)} color="info" /></div>
            <div><b>Triggers</b> {skill.triggers.length ? skill.triggers.map(triggerText).join('; ') : 'none (only explicit /skill)'}</div>
            <div><b>Tools</b> <Tags items={skill.tools} /></div>
            <div><b>Tags</b> <Tags items={skill.tags} /></div>
          </Stack>
          <DiagnosticList diagnostics={skill.diagnostics} />
        </CardContent>
      </Card>
    </Box>
  );
}
