/**
 * One document of one layer in the code editor. Save writes it with its version (a stale version is
 * a CONFLICT); the server's diagnostics appear at their lines. History restores an old version by
 * writing it again; Delete removes this layer's copy, after which the outer copy (if any) shows.
 * Validate runs the server's checks without saving (against the files beside it in this layer);
 * documents that hold a template get a "preview with context" panel (TemplatePreview.tsx).
 * Leaving with unsaved edits asks first. A save refused for its diagnostics (DOCUMENT_INVALID) offers
 * "Save anyway" (putDocument force): that refusal comes only after the write permission check, so it
 * reaches exactly those who may write — and so force — this layer; the diagnostics stay in view.
 * Save, delete, restore and "copy to" appear only for layers the caller may write (Project.myPermissions).
 */
import { useEffect, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { Title, useDataProvider, useNotify } from 'react-admin';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { parseDocumentId, type VanceDataProvider } from '../api/dataProvider';
import { diagnosticsOf, messageOf, type GraphQLErrorBody } from '../api/graphql';
import type { Diagnostic, Layer } from '../api/types';
import { CodeEditor, DiagnosticList } from '../common/CodeEditor';
import { LayerChip, ShadowedChips } from '../common/Chips';
import { useAsync } from '../common/useAsync';
import { useCan } from '../common/useCan';
import { useUnsavedChangesPrompt } from '../common/useUnsavedChangesPrompt';
import { editPath } from './LayerList';
import { TemplatePreview, templateOf } from './TemplatePreview';

export function DocumentEdit() {
  const { id = '' } = useParams();
  const { layer, path } = parseDocumentId(decodeURIComponent(id));
  const dp = useDataProvider<VanceDataProvider>();
  const notify = useNotify();
  const navigate = useNavigate();
  const loaded = useAsync(async (p) => ({ doc: await p.document(layer, path), effective: await p.effectiveDocument(path) }), [layer, path]);
  const history = useAsync((p) => (layer === 'RESOURCE' ? Promise.resolve([]) : p.documentHistory(layer, path)), [layer, path]);
  const [content, setContent] = useState('');
  // What was loaded (or last saved): the editor is dirty while its text differs.
  const [baseline, setBaseline] = useState('');
  // The text a save was refused for its diagnostics; "Save anyway" is offered while the editor holds it.
  const [refused, setRefused] = useState<string | null>(null);
  // Which document the editor's text was loaded from (tests wait for it; typing earlier would be overwritten).
  const [readyFor, setReadyFor] = useState<string | null>(null);
  const [diagnostics, setDiagnostics] = useState<Diagnostic[]>([]);
  const [saving, setSaving] = useState(false);
  const doc = loaded.data?.doc ?? null;
  const effective = loaded.data?.effective ?? null;
  const can = useCan();
  const readOnly = !can.writes(layer);

  useEffect(() => {
    if (loaded.data) {
      setContent(loaded.data.doc?.content ?? '');
      setBaseline(loaded.data.doc?.content ?? '');
      setRefused(null);
      setReadyFor(id);
      setDiagnostics(loaded.data.doc?.diagnostics ?? []);
    }
  }, [loaded.data]);

  const { bypass } = useUnsavedChangesPrompt(!readOnly && content !== baseline);
  const reload = () => { loaded.reload(); history.reload(); };
  const save = async (text: string, expectedVersion: number | undefined, force = false) => {
    setSaving(true);
    try {
      const saved = await dp.putDocument(layer, path, text, expectedVersion, force);
      setDiagnostics(saved.diagnostics);
      setBaseline(text);
      setRefused(null);
      const errors = saved.diagnostics.filter((d) => d.severity === 'ERROR').length;
      notify(`Saved ${path} (version ${saved.version})${errors ? ` anyway, with ${errors} error(s)` : ''}`, { type: errors ? 'warning' : 'success' });
      reload();
    } catch (err) {
      const found = diagnosticsOf(err);
      setDiagnostics(found);
      const invalid = (err as { body?: Partial<GraphQLErrorBody> }).body?.domainCode === 'DOCUMENT_INVALID';
      setRefused(invalid ? text : null);
      notify(invalid ? `Not saved: ${found.length} problem(s) in the document` : messageOf(err), { type: 'error' });
    } finally {
      setSaving(false);
    }
  };
  /** The server's checks without saving, against the documents beside this one in its layer. */
  const validate = async () => {
    try {
      const found = await dp.validateDocument(path, content, layer);
      setDiagnostics(found);
      notify(found.length ? `${found.length} problem(s) in the document` : 'No problems found', { type: found.length ? 'warning' : 'success' });
    } catch (err) {
      notify(messageOf(err), { type: 'error' });
    }
  };
  const remove = async () => {
    try {
      await dp.deleteDocument(layer, path);
      notify(`Deleted the ${layer} copy of ${path}`, { type: 'info' });
      reload();
    } catch (err) {
      notify(messageOf(err), { type: 'error' });
    }
  };
  const copyTo = async (target: Layer) => {
    try {
      const existing = await dp.document(target, path);
      await dp.putDocument(target, path, content, existing?.version ?? 0);
      // The edits are written there: leaving this page loses nothing.
      bypass();
      navigate(editPath(target, path));
    } catch (err) {
      notify(messageOf(err), { type: 'error' });
    }
  };

  return (
    <Box sx={{ p: 2 }} data-testid="document-edit" data-ready={readyFor === id && !loaded.loading ? 'true' : 'false'}>
      <Title title={path} />
      <Stack direction="row" spacing={1} sx={{ mb: 1, alignItems: 'center' }}>
        <Link to={`/documents?layer=${layer}`}>← {layer}</Link>
        <Typography variant="h6" sx={{ fontFamily: 'monospace' }}>{path}</Typography>
        <LayerChip layer={layer} />
        {doc ? <Typography variant="body2">version {doc.version}</Typography> : <Typography variant="body2" color="text.secondary">not in this layer yet</Typography>}
      </Stack>
      {effective ? (
        <Alert severity={effective.source === layer ? 'success' : 'info'} sx={{ mb: 1 }} data-testid="effective-source">
          Effective copy: <b>{effective.source}</b>
          {effective.source === layer ? ' (this one)' : <> — <Link to={editPath(effective.source, path)}>open it</Link></>}
          {effective.shadowed.length ? <> · shadows {effective.shadowed.join(', ')}</> : null}
        </Alert>
      ) : null}
      {!doc && effective && effective.source !== layer ? (
        <Alert severity="info" sx={{ mb: 1 }}>This layer has no copy; the editor starts from nothing. Showing the outer copy below is one click away: <Button size="small" onClick={() => setContent(effective.document.content)}>start from the {effective.source} copy</Button></Alert>
      ) : null}
      {can.loaded && readOnly && layer !== 'RESOURCE' ? <Alert severity="info" sx={{ mb: 1 }} data-testid="read-only-layer">You may read the {layer} layer here, not write it.</Alert> : null}
      <CodeEditor path={path} value={content} onChange={setContent} readOnly={readOnly} diagnostics={diagnostics} />
      <DiagnosticList diagnostics={diagnostics} />
      {refused !== null && refused === content && !readOnly ? (
        <Alert severity="warning" sx={{ my: 1 }} data-testid="save-refused"
          action={<Button color="inherit" size="small" disabled={saving} onClick={() => void save(content, doc?.version ?? 0, true)} data-testid="save-anyway">Save anyway</Button>}>
          Not saved: the document does not validate. Fix the problems above, or save it anyway (it is marked invalid until fixed).
        </Alert>
      ) : null}
      <Stack direction="row" spacing={1} sx={{ my: 1 }}>
        {!readOnly && <Button variant="contained" disabled={saving} onClick={() => void save(content, doc?.version ?? 0)} data-testid="save-document">Save</Button>}
        <Button variant="outlined" onClick={() => void validate()} data-testid="validate-document">Validate</Button>
        {!readOnly && doc && <Button color="error" onClick={() => void remove()} data-testid="delete-document">Delete this copy</Button>}
        {can.writableLayers.filter((l) => l !== layer).map((l) => (
          <Button key={l} variant="outlined" onClick={() => void copyTo(l)} data-testid={`copy-to-${l}`}>Copy to {l}</Button>
        ))}
      </Stack>
      {effective ? <Box sx={{ mb: 1 }}><ShadowedChips layers={effective.shadowed} /></Box> : null}
      {loaded.data && templateOf(path, content) ? <TemplatePreview key={`${path}@${doc?.version ?? 0}`} path={path} content={doc?.content ?? content} draft={content} /> : null}
      {layer !== 'RESOURCE' && (
        <Card variant="outlined" sx={{ mt: 2 }}>
          <CardContent>
            <Typography variant="subtitle1">History</Typography>
            <Table size="small" data-testid="history">
              <TableHead><TableRow><TableCell>Version</TableCell><TableCell>When</TableCell><TableCell>Author</TableCell><TableCell /></TableRow></TableHead>
              <TableBody>
                {(history.data ?? []).map((r) => (
                  <TableRow key={r.version}>
                    <TableCell>{r.version}{r.deleted ? ' (deleted)' : ''}</TableCell>
                    <TableCell>{new Date(r.createdAt).toLocaleString()}</TableCell>
                    <TableCell>{r.author ?? '—'}</TableCell>
                    <TableCell>
                      {r.content !== null && !readOnly && (
                        <>
                          <Button size="small" onClick={() => setContent(r.content ?? '')}>Load</Button>
                          <Button size="small" onClick={() => void save(r.content ?? '', doc?.version ?? 0)} data-testid={`restore-${r.version}`}>Restore</Button>
                        </>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </CardContent>
        </Card>
      )}
    </Box>
  );
}
