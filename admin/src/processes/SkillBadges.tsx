import { Chip, Stack } from '@mui/material';
import type { ActiveSkill } from '../api/types';

/** seed 000 §4d: active skills as badges, whatever activated them. */
export const SkillBadges = ({ skills, onClear }: { skills: ActiveSkill[]; onClear?: (name: string) => void }) => (
  <Stack direction="row" spacing={0.5} useFlexGap data-testid="active-skills" sx={{ flexWrap: 'wrap' }}>
    {skills.map((s) => (
      <Chip key={s.name} size="small" color={s.oneShot ? 'warning' : 'primary'} title={s.reason}
        label={`Skill: ${s.name} active${s.oneShot ? ' (once)' : ''}${s.fromRecipe ? ' · recipe' : ''}`}
        {...(onClear ? { onDelete: () => onClear(s.name) } : {})} data-skill={s.name} />
    ))}
    {skills.length === 0 ? <span style={{ opacity: 0.5 }}>none</span> : null}
  </Stack>
);
