/**
 * The ToolSource of tool documents (issue 19): `_vance/tools/<name>.yaml` of the PROJECT, VANCE
 * (tenant) and RESOURCE (bundled) layers, first hit by name. The USER layer is not read: server
 * tools are the team's, shared by every process of the project, while USER documents are private
 * to one person. A document that does not parse is left out and reported in `problems`; packs
 * (`.mcp.yaml`) belong to their own source.
 */
import type { Layer } from '../cascade/layer';
import type { LayerDocument } from '../cascade/document';
import type { CascadeScope } from '../cascade/scope';
import type { Principal } from '../identity/principal';
import { documentTool, type DocumentToolDeps } from './document-tool';
import { parseToolDocument } from './parse-tool-document';
import { TOOLS_PREFIX, toolDocumentName } from './tool-document';
import type { ToolCatalog } from './tool-descriptor';
import type { SourcedTool, ToolSet, ToolSource, ToolSourceProblem } from './tool-source';

const TOOL_LAYERS: readonly Layer[] = ['PROJECT', 'VANCE', 'RESOURCE'];

export interface ToolDocumentLister {
  listLayer(scope: CascadeScope, layer: Layer, prefix: string): Promise<LayerDocument[]>;
}

export class DocumentToolSource implements ToolSource {
  constructor(
    private readonly documents: ToolDocumentLister,
    private readonly builtins: ToolCatalog,
    private readonly deps: DocumentToolDeps,
  ) {}

  async toolsFor(_principal: Principal, scope: CascadeScope): Promise<ToolSet> {
    const perLayer = await Promise.all(TOOL_LAYERS.map((layer) => this.documents.listLayer(scope, layer, TOOLS_PREFIX)));
    const builtins = new Set(this.builtins.list().map((t) => t.name));
    const seen = new Set<string>();
    const tools: SourcedTool[] = [];
    const problems: ToolSourceProblem[] = [];
    for (const docs of perLayer) {
      for (const doc of docs) {
        const name = toolDocumentName(doc.path);
        if (name === null || seen.has(name)) continue;
        // The inner layer's copy wins, valid or not: a broken project copy does not bring back the tenant's.
        seen.add(name);
        const parsed = parseToolDocument({ name, path: doc.path, content: doc.content }, builtins);
        if (!parsed.tool) {
          const first = parsed.diagnostics.find((d) => d.severity === 'ERROR');
          problems.push({ path: doc.path, message: `${doc.layer}: ${first ? `${first.line !== undefined ? `line ${first.line}: ` : ''}${first.message}` : 'does not parse'}` });
          continue;
        }
        tools.push(documentTool(parsed.tool, { kind: 'DOCUMENT', layer: doc.layer, path: doc.path }, this.deps));
      }
    }
    return { tools: tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), problems };
  }
}
