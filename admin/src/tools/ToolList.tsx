/**
 * Tools of the current project (issue 19): the built-ins, then the tool documents and MCP pack tools
 * the project sees, each with where it comes from and its labels (what recipes' `@label` selectors
 * match), and the documents or packs that could not be offered. Client tools come per session.
 */
import { Box, Chip, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { messageOf } from '../api/graphql';
import type { ToolOrigin } from '../api/types';
import { Tags } from '../common/Chips';
import { useAsync } from '../common/useAsync';

function source(origin: ToolOrigin): string {
  if (origin.kind === 'BUILTIN') return 'built-in';
  if (origin.kind === 'MCP_PACK') return `pack ${origin.pack ?? ''} · ${origin.layer ?? ''}`;
  return `${origin.layer ?? ''} · ${origin.path ?? ''}`;
}

export function ToolList() {
  const tools = useAsync((dp) => dp.projectTools(), []);
  return (
    <Box sx={{ p: 2 }}>
      <Title title="Tools" />
      {tools.error ? <Typography color="error">{messageOf(tools.error)}</Typography> : null}
      <Table size="small" data-testid="tool-table">
        <TableHead><TableRow><TableCell>Name</TableCell><TableCell>Kind</TableCell><TableCell>Source</TableCell><TableCell>Labels</TableCell><TableCell>Description</TableCell></TableRow></TableHead>
        <TableBody>
          {(tools.data?.tools ?? []).map((t) => (
            <TableRow key={t.name} hover data-testid={`tool-${t.name}`}>
              <TableCell>{t.name}{t.deferred ? <Chip size="small" sx={{ ml: 1 }} label="deferred" /> : null}</TableCell>
              <TableCell><Chip size="small" variant="outlined" label={t.origin.kind} /></TableCell>
              <TableCell>{source(t.origin)}</TableCell>
              <TableCell><Tags items={t.labels} /></TableCell>
              <TableCell>{t.description.split('\n')[0]}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {tools.data?.problems.map((p) => <Typography key={p.path} color="warning.main" variant="body2" data-testid="tool-problem">{p.path}: {p.message}</Typography>)}
    </Box>
  );
}
