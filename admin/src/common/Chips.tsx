import { Chip, Stack } from '@mui/material';
import type { Layer } from '../api/types';

const LAYER_COLOR: Record<Layer, 'primary' | 'secondary' | 'success' | 'default'> = { USER: 'secondary', PROJECT: 'primary', VANCE: 'success', RESOURCE: 'default' };

export const LayerChip = ({ layer, size = 'small' }: { layer: Layer | null | undefined; size?: 'small' | 'medium' }) =>
  layer ? <Chip size={size} label={layer} color={LAYER_COLOR[layer]} variant="outlined" data-layer={layer} /> : null;

export const ShadowedChips = ({ layers }: { layers: Layer[] }) =>
  layers.length ? (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
      <span style={{ fontSize: 12, opacity: 0.7 }}>shadows</span>
      {layers.map((l) => <LayerChip key={l} layer={l} />)}
    </Stack>
  ) : <span style={{ opacity: 0.5 }}>—</span>;

export const Tags = ({ items, color = 'default' }: { items: string[]; color?: 'default' | 'info' | 'warning' }) => (
  <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
    {items.map((t) => <Chip key={t} size="small" label={t} color={color} />)}
  </Stack>
);
