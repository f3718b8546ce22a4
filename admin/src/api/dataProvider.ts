/**
 * A hand-written react-admin DataProvider over Vance's own operations (no generic naming grammar).
 * Resources: documents (one layer, id `LAYER:path`), skills and recipes (id = name), processes,
 * projects, settings (id = key). Lists are small and come whole; paging, sorting and the `q`
 * search happen here. Every operation in `ops` is also a method, so pages call e.g.
 * `useDataProvider<VanceDataProvider>().skillTriggerTest(…)` and react-admin's auth flow (checkError)
 * sees their errors too.
 */
import type { DataProvider, GetListParams, Identifier, RaRecord } from 'react-admin';
import { ops, type Ops } from './operations';
import { session } from './session';
import type { DocumentRow, Layer, VanceDocument } from './types';

export type VanceDataProvider = DataProvider & Ops;

export const documentId = (layer: Layer, path: string): string => `${layer}:${path}`;
export function parseDocumentId(id: Identifier): { layer: Layer; path: string } {
  const text = String(id);
  const at = text.indexOf(':');
  return { layer: text.slice(0, at) as Layer, path: text.slice(at + 1) };
}

const docRow = (d: VanceDocument): DocumentRow & { content: string; diagnostics: VanceDocument['diagnostics'] } => ({ ...d, id: documentId(d.layer, d.path) });

function requireProject(): string {
  const project = session.project();
  if (!project) throw new Error('Choose a project first (top bar)');
  return project;
}

function page<T extends RaRecord>(rows: T[], params: GetListParams): { data: T[]; total: number } {
  const q = typeof params.filter?.q === 'string' ? params.filter.q.toLowerCase() : '';
  let out = q ? rows.filter((r) => JSON.stringify(r).toLowerCase().includes(q)) : rows;
  const { field, order } = params.sort ?? { field: 'id', order: 'ASC' };
  if (field) {
    out = [...out].sort((a, b) => {
      const x = String(a[field] ?? ''), y = String(b[field] ?? '');
      return order === 'DESC' ? y.localeCompare(x) : x.localeCompare(y);
    });
  }
  const { page: p, perPage } = params.pagination ?? { page: 1, perPage: 1000 };
  return { data: out.slice((p - 1) * perPage, p * perPage), total: out.length };
}

type Resource = 'documents' | 'skills' | 'recipes' | 'processes' | 'projects' | 'settings';

async function listAll(resource: Resource, filter: Record<string, unknown>): Promise<RaRecord[]> {
  switch (resource) {
    case 'documents':
      return (await ops.documents((filter.layer as Layer) ?? 'PROJECT', (filter.prefix as string) ?? '')).map(docRow);
    case 'skills':
      return (await ops.skills()).map((s) => ({ ...s, id: s.name }));
    case 'recipes':
      return (await ops.recipes()).map((r) => ({ ...r, id: r.name }));
    case 'processes':
      return (await ops.processes(requireProject())).map((p) => ({ ...p }));
    case 'projects':
      return (await ops.projects()).map((p) => ({ ...p, id: p.name }));
    case 'settings': {
      const scope = filter.scope === 'tenant' ? null : session.project();
      return (await ops.settings(scope)).map((s) => ({ ...s, id: s.key }));
    }
  }
}

async function getOne(resource: Resource, id: Identifier): Promise<RaRecord> {
  switch (resource) {
    case 'documents': {
      const { layer, path } = parseDocumentId(id);
      const doc = await ops.document(layer, path);
      if (!doc) throw new Error(`No document ${path} in the ${layer} layer`);
      return docRow(doc);
    }
    case 'skills': {
      const skill = await ops.skill(String(id));
      if (!skill) throw new Error(`No skill '${id}'`);
      return { ...skill, id: skill.name };
    }
    case 'recipes': {
      const recipe = await ops.recipe(String(id));
      if (!recipe) throw new Error(`No recipe '${id}'`);
      return { ...recipe, id: recipe.name };
    }
    case 'processes':
      return ops.process(String(id));
    default: {
      const row = (await listAll(resource, {})).find((r) => r.id === id);
      if (!row) throw new Error(`No ${resource} '${id}'`);
      return row;
    }
  }
}

const unsupported = (what: string, resource: string): never => {
  throw new Error(`${what} is not supported for ${resource}`);
};

const base: DataProvider = {
  getList: async (resource, params) => page(await listAll(resource as Resource, params.filter ?? {}), params) as never,
  getOne: async (resource, params) => ({ data: await getOne(resource as Resource, params.id) }) as never,
  getMany: async (resource, params) => ({ data: await Promise.all(params.ids.map((id) => getOne(resource as Resource, id))) }) as never,
  getManyReference: async (resource, params) =>
    page(await listAll(resource as Resource, { ...params.filter, [params.target]: params.id }), params) as never,
  create: async (resource, params) => {
    const data = params.data as Record<string, unknown>;
    switch (resource) {
      case 'documents':
        return { data: docRow(await ops.putDocument(data.layer as Layer, String(data.path), String(data.content ?? ''), 0)) } as never;
      case 'processes':
        return { data: await ops.spawnProcess({ project: requireProject(), recipe: (data.recipe as string) || null, name: (data.name as string) || null }) } as never;
      case 'projects': {
        const p = await ops.createProject(String(data.name));
        return { data: { ...p, id: p.name } } as never;
      }
      default:
        return unsupported('create', resource);
    }
  },
  update: async (resource, params) => {
    const data = params.data as Record<string, unknown>;
    switch (resource) {
      case 'documents': {
        const { layer, path } = parseDocumentId(params.id);
        return { data: docRow(await ops.putDocument(layer, path, String(data.content ?? ''), (params.previousData as { version?: number })?.version)) } as never;
      }
      case 'settings': {
        const s = await ops.putSetting(String(params.id), (data.value as string | null) ?? null, data.scope === 'tenant' ? null : session.project(), Boolean(data.secret));
        return { data: { ...s, id: s.key } } as never;
      }
      default:
        return unsupported('update', resource);
    }
  },
  updateMany: async (resource) => unsupported('updateMany', resource),
  delete: async (resource, params) => {
    if (resource !== 'documents') return unsupported('delete', resource);
    const { layer, path } = parseDocumentId(params.id);
    await ops.deleteDocument(layer, path);
    return { data: params.previousData ?? { id: params.id } } as never;
  },
  deleteMany: async (resource, params) => {
    if (resource !== 'documents') return unsupported('deleteMany', resource);
    for (const id of params.ids) {
      const { layer, path } = parseDocumentId(id);
      await ops.deleteDocument(layer, path);
    }
    return { data: params.ids } as never;
  },
};

export const dataProvider: VanceDataProvider = { ...base, ...ops };
