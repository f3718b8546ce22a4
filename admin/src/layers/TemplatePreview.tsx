/**
 * "Preview with context" for the document editor: renders a template of the document (a skill body,
 * a recipe's promptPrefix, an engine prompt) through renderTemplate — the server's renderer with its
 * limits — with a context the author types (JSON over the defaults a new process of the recipe
 * gets). A failed render shows its code and the line in the template. The editor mounts it per
 * loaded document version (its `key`), so it starts from the template of what was loaded; "from the
 * editor" takes the template of the unsaved text (`draft`) instead.
 */
import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { parse } from 'yaml';
import { ops } from '../api/operations';
import { messageOf } from '../api/graphql';
import type { TemplateKind, TemplateRender } from '../api/types';

/** The template a document holds and what kind it renders as; null: this document has none. */
export function templateOf(path: string, content: string): { source: string; kind: TemplateKind } | null {
  if (/\/SKILL\.md$/.test(path)) {
    const body = /^---\r?\n[\s\S]*?\r?\n---\r?\n?([\s\S]*)$/.exec(content);
    return { source: body ? body[1]! : content, kind: 'SKILL_BODY' };
  }
  if (/^_vance\/prompts\/[^/]+\.md$/.test(path)) return { source: content, kind: 'PROMPT' };
  if (/^_vance\/recipes\/[^/]+\.yaml$/.test(path)) {
    try {
      const recipe = parse(content) as { promptPrefix?: unknown } | null;
      return { source: typeof recipe?.promptPrefix === 'string' ? recipe.promptPrefix : '', kind: 'PROMPT' };
    } catch {
      return { source: '', kind: 'PROMPT' };
    }
  }
  return null;
}

const recipeOf = (path: string): string | null => /^_vance\/recipes\/([^/]+)\.yaml$/.exec(path)?.[1] ?? null;

export function TemplatePreview({ path, content, draft }: { path: string; content: string; draft?: string }) {
  const found = templateOf(path, content);
  const [source, setSource] = useState(found?.source ?? '');
  const [kind, setKind] = useState<TemplateKind>(found?.kind ?? 'PROMPT');
  const [context, setContext] = useState('{\n  "tier": "small",\n  "mode": "PLANNING"\n}');
  const [result, setResult] = useState<TemplateRender | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const render = async () => {
    setProblem(null);
    let parsed: Record<string, unknown> | null = null;
    try {
      parsed = context.trim() ? (JSON.parse(context) as Record<string, unknown>) : null;
    } catch (err) {
      setProblem(`The context is not JSON: ${(err as Error).message}`);
      return;
    }
    try {
      setResult(await ops.renderTemplate(source, parsed, kind, recipeOf(path)));
    } catch (err) {
      setResult(null);
      setProblem(messageOf(err));
    }
  };

  return (
    <Card variant="outlined" sx={{ mt: 2 }} data-testid="template-preview">
      <CardContent>
        <Typography variant="subtitle1">Preview with context</Typography>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mt: 1 }}>
          <TextField label="Template" multiline minRows={4} value={source} onChange={(e) => setSource(e.target.value)} sx={{ flex: 2 }}
            slotProps={{ htmlInput: { 'data-testid': 'preview-source', style: { fontFamily: 'monospace' } } }} />
          <Stack spacing={1} sx={{ flex: 1 }}>
            <TextField select label="Render as" size="small" value={kind} onChange={(e) => setKind(e.target.value as TemplateKind)}
              slotProps={{ htmlInput: { 'data-testid': 'preview-kind' } }}>
              <MenuItem value="PROMPT">prompt (recipe, profile, engine)</MenuItem>
              <MenuItem value="SKILL_BODY">skill body</MenuItem>
              <MenuItem value="ACTION">skill action</MenuItem>
            </TextField>
            <TextField label="Context (JSON over the defaults)" multiline minRows={3} value={context} onChange={(e) => setContext(e.target.value)}
              slotProps={{ htmlInput: { 'data-testid': 'preview-context', style: { fontFamily: 'monospace' } } }} />
            <Button variant="outlined" onClick={() => void render()} data-testid="preview-render">Render</Button>
            {draft !== undefined && draft !== content ? (
              <Button size="small" onClick={() => setSource(templateOf(path, draft)?.source ?? '')} data-testid="preview-from-editor">Template from the editor (unsaved)</Button>
            ) : null}
          </Stack>
        </Stack>
        {problem ? <Alert severity="error" sx={{ mt: 1 }} data-testid="preview-problem">{problem}</Alert> : null}
        {result?.error ? (
          <Alert severity="error" sx={{ mt: 1 }} data-testid="preview-error">
            {result.error.code}{result.error.line ? ` at line ${result.error.line}${result.error.column ? `:${result.error.column}` : ''} of the template` : ''}: {result.error.message}
          </Alert>
        ) : null}
        {result && !result.error ? (
          <Box component="pre" data-testid="preview-output" sx={{ mt: 1, p: 1, bgcolor: 'grey.100', whiteSpace: 'pre-wrap', fontFamily: 'monospace' }}>{result.output}</Box>
        ) : null}
        {result ? (
          <Typography variant="caption" color="text.secondary" component="div" data-testid="preview-context-used" sx={{ fontFamily: 'monospace' }}>
            context: {JSON.stringify(result.context)}
          </Typography>
        ) : null}
      </CardContent>
    </Card>
  );
}
