/**
 * Layers: the documents of one layer — the caller's USER layer, the selected PROJECT, the tenant
 * (VANCE) and the read-only bundled RESOURCE layer — plus a new-document form for the layers the
 * caller may write.
 */
import { useState } from 'react';
import { Box, Button, Tab, Table, TableBody, TableCell, TableHead, TableRow, Tabs, TextField, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { documentId } from '../api/dataProvider';
import { LAYERS, type Layer } from '../api/types';
import { messageOf } from '../api/graphql';
import { useAsync } from '../common/useAsync';
import { useCan } from '../common/useCan';

export const LAYER_TITLE: Record<Layer, string> = { USER: 'My user layer', PROJECT: 'Project', VANCE: 'Tenant (VANCE)', RESOURCE: 'Bundled (read-only)' };
export const editPath = (layer: Layer, path: string) => `/documents/${encodeURIComponent(documentId(layer, path))}`;

export function LayerList() {
  const [params, setParams] = useSearchParams();
  const layer = (LAYERS.includes(params.get('layer') as Layer) ? params.get('layer') : 'PROJECT') as Layer;
  const [filter, setFilter] = useState('');
  const [newPath, setNewPath] = useState('');
  const navigate = useNavigate();
  const docs = useAsync((dp) => dp.documents(layer), [layer]);
  const can = useCan();
  const rows = (docs.data ?? []).filter((d) => d.path.toLowerCase().includes(filter.toLowerCase()));
  return (
    <Box sx={{ p: 2 }}>
      <Title title="Layers" />
      <Tabs value={layer} onChange={(_e, v: Layer) => setParams({ layer: v })}>
        {LAYERS.map((l) => <Tab key={l} value={l} label={LAYER_TITLE[l]} data-testid={`layer-tab-${l}`} />)}
      </Tabs>
      <Box sx={{ display: 'flex', gap: 2, my: 2, alignItems: 'center' }}>
        <TextField size="small" label="Filter paths" value={filter} onChange={(e) => setFilter(e.target.value)} />
        {can.writes(layer) && (
          <>
            <TextField size="small" label="New document path" placeholder="_vance/skills/my-skill/SKILL.md" value={newPath} onChange={(e) => setNewPath(e.target.value)} sx={{ minWidth: 360 }} />
            <Button variant="outlined" disabled={!newPath.trim()} onClick={() => navigate(editPath(layer, newPath.trim()))}>New</Button>
          </>
        )}
      </Box>
      {docs.error ? <Typography color="error">{messageOf(docs.error)}</Typography> : null}
      <Table size="small" data-testid="document-table">
        <TableHead>
          <TableRow><TableCell>Path</TableCell><TableCell>Version</TableCell><TableCell>Size</TableCell><TableCell>Updated</TableCell><TableCell>By</TableCell></TableRow>
        </TableHead>
        <TableBody>
          {rows.map((d) => (
            <TableRow key={d.path} hover>
              <TableCell><Link to={editPath(layer, d.path)}>{d.path}</Link></TableCell>
              <TableCell>{d.version}</TableCell>
              <TableCell>{d.size}</TableCell>
              <TableCell>{d.updatedAt ? new Date(d.updatedAt).toLocaleString() : '—'}</TableCell>
              <TableCell>{d.updatedBy ?? '—'}</TableCell>
            </TableRow>
          ))}
          {!docs.loading && rows.length === 0 ? <TableRow><TableCell colSpan={5}>No documents in this layer.</TableCell></TableRow> : null}
        </TableBody>
      </Table>
    </Box>
  );
}
