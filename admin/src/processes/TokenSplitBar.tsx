import { Box, Stack, Tooltip, Typography } from '@mui/material';
import type { TokenSplit } from '../api/types';

const PARTS = [
  { key: 'system', color: '#1976d2' },
  { key: 'skills', color: '#9c27b0' },
  { key: 'history', color: '#2e7d32' },
  { key: 'tools', color: '#ed6c02' },
] as const satisfies readonly { key: keyof TokenSplit; color: string }[];

const n = (value: number) => value.toLocaleString('en-US');

/** The context window as one bar: system / skills / history / tools, the rest free; the numbers beside. */
export function TokenSplitBar({ tokens }: { tokens: TokenSplit }) {
  const scale = Math.max(tokens.window, tokens.total, 1);
  return (
    <Box data-testid="token-split">
      <Stack direction="row" sx={{ height: 10, borderRadius: 1, overflow: 'hidden', bgcolor: 'action.hover', my: 0.5 }}>
        {PARTS.map(({ key, color }) => (
          <Tooltip key={key} title={`${key}: ${n(tokens[key])} tokens`}>
            <Box sx={{ width: `${(100 * tokens[key]) / scale}%`, bgcolor: color }} />
          </Tooltip>
        ))}
      </Stack>
      <Typography variant="caption">
        {PARTS.map(({ key, color }) => (
          <span key={key} style={{ marginRight: 8 }}><span style={{ color }}>■</span> {key} {n(tokens[key])} </span>
        ))}
        {`— ${n(tokens.total)} of ${n(tokens.window)} tokens`}
      </Typography>
    </Box>
  );
}
