/** Skills: the effective list — source layer, what it shadows, status, policy flags, triggers, lifecycle. */
import { Datagrid, FunctionField, List, TextField, TextInput } from 'react-admin';
import type { Skill, SkillTrigger } from '../api/types';
import { LayerChip, ShadowedChips, Tags } from '../common/Chips';

export const triggerText = (t: SkillTrigger) =>
  t.type === 'PATTERN' ? `pattern /${t.pattern ?? ''}/` : `keywords ${(t.keywords ?? []).join(', ')}${t.minMatch ? ` (min ${t.minMatch})` : ''}`;

export const policyFlags = (s: Skill) =>
  [s.modelInvocable ? 'model' : null, s.userInvocable ? '/skill' : null, s.run?.target === 'spawn' ? 'spawn' : null].filter((x): x is string => x !== null);

export const SkillList = () => (
  <List filters={[<TextInput key="q" source="q" label="Search" alwaysOn />]} sort={{ field: 'name', order: 'ASC' }} perPage={100} pagination={false}>
    <Datagrid rowClick="show" bulkActionButtons={false}>
      <TextField source="name" />
      <FunctionField<Skill> label="Source" render={(s) => <LayerChip layer={s.source} />} />
      <FunctionField<Skill> label="Shadows" render={(s) => <ShadowedChips layers={s.shadowed} />} />
      <TextField source="status" />
      <TextField source="lifecycle" emptyText="sticky" />
      <FunctionField<Skill> label="Invocable by" render={(s) => <Tags items={policyFlags(s)} color="info" />} />
      <FunctionField<Skill> label="Triggers" render={(s) => (s.triggers.length ? s.triggers.map(triggerText).join('; ') : '—')} />
      <TextField source="description" />
    </Datagrid>
  </List>
);
