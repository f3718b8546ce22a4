/** allowedSkills / defaultActiveSkills editor: choose from available skills; the three modes explicit; `disabled` where the page may not write. */
import { Alert, Box, Checkbox, FormControlLabel, Radio, RadioGroup, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { setMode, toggleAllowed, toggleDefault, type Whitelist, type WhitelistMode } from './whitelist';

export function WhitelistEditor({ recipe, value, onChange, skills, disabled = false }: { recipe: string; value: Whitelist; onChange: (w: Whitelist) => void; skills: string[]; disabled?: boolean }) {
  const names = [...new Set([...skills, ...value.allowed, ...value.defaults])].sort();
  const restricted = value.mode !== 'none';
  return (
    <Box data-testid="whitelist-editor" data-recipe={recipe}>
      <RadioGroup row value={value.mode} data-mode={value.mode} onChange={(e) => onChange(setMode(value, e.target.value as WhitelistMode))}>
        <FormControlLabel value="none" control={<Radio disabled={disabled} slotProps={{ input: { 'aria-label': 'no restriction' } }} data-testid="mode-none" />} label="No restriction (allowedSkills absent)" />
        <FormControlLabel value="list" control={<Radio disabled={disabled} data-testid="mode-list" />} label="Whitelist" />
        <FormControlLabel value="lockdown" control={<Radio disabled={disabled} data-testid="mode-lockdown" />} label="Lockdown (allowedSkills: [])" />
      </RadioGroup>
      {value.mode === 'lockdown' ? <Alert severity="warning" sx={{ my: 1 }}>Lockdown: no skill can ever become active in processes of this recipe; defaultActiveSkills is empty.</Alert> : null}
      {value.mode === 'list' && value.allowed.length === 0 ? <Alert severity="warning" sx={{ my: 1 }}>An empty whitelist is a lockdown.</Alert> : null}
      {value.mode === 'none' ? <Typography variant="body2" sx={{ my: 1 }}>Any skill visible in the project may become active.</Typography> : null}
      <Table size="small">
        <TableHead><TableRow><TableCell>Skill</TableCell><TableCell>Allowed</TableCell><TableCell>Active from spawn</TableCell></TableRow></TableHead>
        <TableBody>
          {names.map((s) => {
            const allowed = !restricted || value.allowed.includes(s);
            return (
              <TableRow key={s} data-skill={s}>
                <TableCell>{s}{skills.includes(s) ? '' : ' (not found)'}</TableCell>
                <TableCell>
                  <Checkbox checked={allowed} disabled={disabled || value.mode !== 'list'} onChange={(e) => onChange(toggleAllowed(value, s, e.target.checked))}
                    slotProps={{ input: { 'aria-label': `allow ${s}` } }} data-testid={`allow-${s}`} />
                </TableCell>
                <TableCell>
                  <Checkbox checked={value.defaults.includes(s)} disabled={disabled || !allowed || value.mode === 'lockdown'} onChange={(e) => onChange(toggleDefault(value, s, e.target.checked))}
                    slotProps={{ input: { 'aria-label': `default ${s}` } }} data-testid={`default-${s}`} />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Box>
  );
}
