import { CachedDocumentReader, DocumentCascade, type DocumentCacheOptions, type DocumentStore, type ResourceLayer } from './domain/cascade';
import { DocumentService } from './domain/documents/document-service';
import { DocumentValidator } from './domain/documents/document-validator';
import { LayerTargetResolver } from './domain/documents/layer-target';
import { DOCUMENT_CHANGED_TOPIC, type DocumentChanged } from './domain/events/document-changed';
import type { EventBus } from './domain/events/event-bus';
import { IdentityService } from './domain/identity/identity-service';
import type { IdentityStore } from './domain/identity/identity-store';
import { SettingsService, type SettingsStore } from './domain/settings';

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
  readonly validator?: DocumentValidator;
  readonly documentCache?: DocumentCacheOptions;
}

export function createServices(adapters: ServiceAdapters): Services {
  const identity = new IdentityService(adapters.identityStore, { cacheTtlMs: adapters.identityCacheTtlMs ?? 5_000 });
  const targets = new LayerTargetResolver(identity);
  const cache = new CachedDocumentReader(adapters.documentStore, adapters.documentCache);
  const cascade = new DocumentCascade(cache, adapters.resources);
  const validator = adapters.validator ?? new DocumentValidator([]);
  const documents = new DocumentService({
    targets, cascade, cache, validator, store: adapters.documentStore, bus: adapters.bus, maxDocumentBytes: adapters.maxDocumentBytes,
  });
  const settings = new SettingsService(adapters.settingsStore, targets, adapters.defaultSettings, adapters.identityCacheTtlMs ?? 5_000);
  // Writes on other instances arrive through the bus (LISTEN/NOTIFY); local writes invalidate directly too.
  const unsubscribe = adapters.bus.subscribe<DocumentChanged>(DOCUMENT_CHANGED_TOPIC, (e) => cache.invalidate(e.projectId));
  // After a gap (bus reconnect) we cannot know what changed elsewhere: start cold.
  const unsubscribeGaps = adapters.bus.onMissedEvents(() => cache.clear());
  const dispose = () => {
    unsubscribe();
    unsubscribeGaps();
  };
  return { identity, targets, documents, cascade, cache, settings, validator, bus: adapters.bus, dispose };
}
