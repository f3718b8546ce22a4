import { Chip, Stack } from '@mui/material';

/** The `picked` skills the model opened with open_skill (issue 8); they compose into every turn until closed. */
export const OpenSkillBadges = ({ skills }: { skills: readonly string[] }) => (
  <Stack direction="row" spacing={0.5} useFlexGap data-testid="open-skills" sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
    <span style={{ fontSize: 12, opacity: 0.7 }}>Open (picked):</span>
    {skills.map((name) => <Chip key={name} size="small" variant="outlined" color="secondary" label={`Open: ${name}`} data-skill={name} />)}
    {skills.length === 0 ? <span style={{ opacity: 0.5 }}>none</span> : null}
  </Stack>
);
