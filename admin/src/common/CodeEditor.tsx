/**
 * CodeMirror 6 for YAML and Markdown (SKILL.md: Markdown with a YAML frontmatter). Server
 * diagnostics (1-based line and column) become lint marks at their lines, with a gutter marker.
 */
import { useEffect, useMemo, useRef } from 'react';
import CodeMirror, { type ReactCodeMirrorRef } from '@uiw/react-codemirror';
import { yaml, yamlFrontmatter } from '@codemirror/lang-yaml';
import { markdown } from '@codemirror/lang-markdown';
import { lintGutter, setDiagnostics, type Diagnostic as CmDiagnostic } from '@codemirror/lint';
import type { Text } from '@codemirror/state';
import type { Diagnostic } from '../api/types';

function languageFor(path: string) {
  if (/\.ya?ml$/i.test(path)) return [yaml()];
  if (/\.md$/i.test(path)) return [yamlFrontmatter({ content: markdown() })];
  return [];
}

export function toCmDiagnostics(doc: Text, diagnostics: readonly Diagnostic[]): CmDiagnostic[] {
  return diagnostics.map((d) => {
    const lineNo = Math.min(Math.max(d.line ?? 1, 1), doc.lines);
    const line = doc.line(lineNo);
    const from = Math.min(line.from + Math.max((d.column ?? 1) - 1, 0), line.to);
    return {
      from,
      to: line.to > from ? line.to : from,
      severity: d.severity === 'WARNING' ? 'warning' : 'error',
      message: d.field ? `${d.field}: ${d.message}` : d.message,
    };
  });
}

export function CodeEditor(props: { path: string; value: string; onChange?: (value: string) => void; readOnly?: boolean; diagnostics?: readonly Diagnostic[] }) {
  const ref = useRef<ReactCodeMirrorRef>(null);
  const extensions = useMemo(() => [...languageFor(props.path), lintGutter()], [props.path]);
  const diagnostics = props.diagnostics;
  useEffect(() => {
    const view = ref.current?.view;
    if (!view) return;
    view.dispatch(setDiagnostics(view.state, toCmDiagnostics(view.state.doc, diagnostics ?? [])));
  }, [diagnostics]);
  return (
    <div data-testid="code-editor" style={{ border: '1px solid rgba(0,0,0,0.15)', borderRadius: 4 }}>
      <CodeMirror
        ref={ref}
        value={props.value}
        height="480px"
        extensions={extensions}
        editable={!props.readOnly}
        readOnly={props.readOnly ?? false}
        onChange={props.onChange}
        basicSetup={{ lineNumbers: true, foldGutter: true, highlightActiveLine: !props.readOnly }}
      />
    </div>
  );
}

export const DiagnosticList = ({ diagnostics }: { diagnostics: readonly Diagnostic[] }) =>
  diagnostics.length ? (
    <ul data-testid="diagnostics" style={{ margin: '8px 0', paddingLeft: 20 }}>
      {diagnostics.map((d, i) => (
        <li key={i} style={{ color: d.severity === 'ERROR' ? '#b00020' : '#a15c00' }}>
          {d.line ? `line ${d.line}${d.column ? `:${d.column}` : ''}` : 'document'} {d.severity.toLowerCase()}: {d.field ? `${d.field}: ` : ''}{d.message}
        </li>
      ))}
    </ul>
  ) : null;
