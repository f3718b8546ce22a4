import { CachedDocumentReader, DocumentCascade, type DocumentCacheOptions, type DocumentStore, type ResourceLayer } from './domain/cascade';
import { DocumentService } from './domain/documents/document-service';
import { DocumentValidator } from './domain/documents/document-validator';
import { LayerTargetResolver } from './domain/documents/layer-target';
import { DOCUMENT_CHANGED_TOPIC, type DocumentChanged } from './domain/events/document-changed';
import type { EventBus } from './domain/events/event-bus';
import { IdentityService } from './domain/identity/identity-service';
import type { IdentityStore } from './domain/identity/identity-store';
import { SettingsService, type SettingsStore } from './domain/settings';
import {
  Manuals, RecipeCatalog, RecipeLoader, RecipePicker, RecipeResolver, recipeDocumentKind, type RecipeAuditEntry,
} from './domain/recipes';
import { SkillCatalog, SkillResolver, skillDocumentKind } from './domain/skills';
import type { TemplateEngine } from './domain/templates';
import { builtinToolCatalog, type ToolCatalog } from './domain/tools';

/** The domain services one Vance instance runs, wired over whatever adapters main.ts chose. */
export interface Services {
  readonly identity: IdentityService;
  readonly targets: LayerTargetResolver;
  readonly documents: DocumentService;
  readonly cascade: DocumentCascade;
  readonly cache: CachedDocumentReader;
  readonly bus: EventBus;
  readonly settings: SettingsService;
  readonly validator: DocumentValidator;
  readonly templates: TemplateEngine;
  readonly skills: SkillResolver;
  readonly skillCatalog: SkillCatalog;
  readonly recipes: RecipeLoader;
  readonly recipeCatalog: RecipeCatalog;
  readonly tools: ToolCatalog;
  /** Stops listening for cross-instance invalidations. */
  dispose(): void;
}

export interface ServiceAdapters {
  readonly identityStore: IdentityStore;
  readonly documentStore: DocumentStore;
  readonly settingsStore: SettingsStore;
  readonly defaultSettings: Readonly<Record<string, string>>;
  readonly bus: EventBus;
  readonly resources: ResourceLayer;
  readonly maxDocumentBytes: number;
  readonly identityCacheTtlMs?: number;
  readonly templates: TemplateEngine;
  /** Receives the seed 004 §4 audit line of every resolution with caller overrides. */
  readonly recipeAudit?: (entry: RecipeAuditEntry) => void;
  readonly documentCache?: DocumentCacheOptions;
}

export function createServices(adapters: ServiceAdapters): Services {
  const identity = new IdentityService(adapters.identityStore, { cacheTtlMs: adapters.identityCacheTtlMs ?? 5_000 });
  const targets = new LayerTargetResolver(identity);
  const cache = new CachedDocumentReader(adapters.documentStore, adapters.documentCache);
  const cascade = new DocumentCascade(cache, adapters.resources);
  const { templates } = adapters;
  const validator = new DocumentValidator([skillDocumentKind(templates), recipeDocumentKind(templates)]);
  const documents = new DocumentService({
    targets, cascade, cache, validator, store: adapters.documentStore, bus: adapters.bus, maxDocumentBytes: adapters.maxDocumentBytes,
  });
  const settings = new SettingsService(adapters.settingsStore, targets, adapters.defaultSettings, adapters.identityCacheTtlMs ?? 5_000);
  const tools = builtinToolCatalog();
  const skills = new SkillResolver(cascade, templates);
  const recipes = new RecipeLoader({ cascade, templates });
  const recipeCatalog = new RecipeCatalog({
    loader: recipes,
    resolver: new RecipeResolver({ loader: recipes, templates, tools }),
    picker: new RecipePicker({ loader: recipes, cascade }),
    manuals: new Manuals(cascade),
    targets,
    settings,
    ...(adapters.recipeAudit ? { audit: adapters.recipeAudit } : {}),
  });
  // Writes on other instances arrive through the bus (LISTEN/NOTIFY); local writes invalidate directly too.
  const unsubscribe = adapters.bus.subscribe<DocumentChanged>(DOCUMENT_CHANGED_TOPIC, (e) => cache.invalidate(e.projectId));
  // After a gap (bus reconnect) we cannot know what changed elsewhere: start cold.
  const unsubscribeGaps = adapters.bus.onMissedEvents(() => cache.clear());
  const dispose = () => {
    unsubscribe();
    unsubscribeGaps();
  };
  return {
    identity, targets, documents, cascade, cache, settings, validator, templates, tools,
    skills, skillCatalog: new SkillCatalog(skills, targets), recipes, recipeCatalog, bus: adapters.bus, dispose,
  };
}
