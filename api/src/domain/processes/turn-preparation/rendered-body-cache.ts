import { LRUCache } from 'lru-cache';
import type { TemplateEngine } from '../../templates/template-engine';

/**
 * Rendered skill bodies by (engine, body, render data) — DESIGN §4 caches compiled templates; this
 * also keeps their output, because a sticky body is re-rendered every turn with the same data (the
 * process's render context and the ref's args change rarely) and a render in the isolate costs
 * ~0.1–0.3 ms. Exact: the key holds the body source itself and the data key of data-key.ts (plain
 * JSON data only; anything else is not memoised). Templates are pure functions of their data except
 * nunjucks' `random` filter, so a body that mentions `random` is never memoised; failed renders are
 * not kept. Bounded by entries and by characters (lru-cache); one entry may take a quarter of the
 * characters at most, so a single huge body does not flush the rest.
 */
export interface RenderedBodyCacheOptions {
  readonly maxEntries?: number;
  /** Sum of key and output lengths kept. */
  readonly maxChars?: number;
}

const NON_DETERMINISTIC = /\brandom\b/;

export class RenderedBodyCache {
  private readonly entries: LRUCache<string, string>;
  private readonly engineIds = new WeakMap<TemplateEngine, number>();
  private nextEngineId = 1;
  private renders = 0;

  constructor(options: RenderedBodyCacheOptions = {}) {
    const maxChars = options.maxChars ?? 16_000_000;
    this.entries = new LRUCache({
      max: options.maxEntries ?? 2_000,
      maxSize: maxChars,
      maxEntrySize: Math.max(1, Math.floor(maxChars / 4)),
      sizeCalculation: (output, key) => key.length + output.length,
    });
  }

  /**
   * `dataKey` is data-key.ts's key of the full render context (args included), or null to bypass;
   * `renderNow` renders `source` on `templates` with that data (on a miss).
   */
  async render(templates: TemplateEngine, source: string, renderNow: () => Promise<string>, dataKey: string | null): Promise<string> {
    if (dataKey === null || NON_DETERMINISTIC.test(source)) return this.counted(renderNow);
    const key = `${this.engineId(templates)}\u0000${dataKey}\u0000${source}`;
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const output = await this.counted(renderNow);
    this.entries.set(key, output);
    return output;
  }

  /** Engine renders so far (misses and bypasses) — for tests and the benchmark. */
  get engineRenders(): number {
    return this.renders;
  }

  clear(): void {
    this.entries.clear();
  }

  private counted(renderNow: () => Promise<string>): Promise<string> {
    this.renders++;
    return renderNow();
  }

  private engineId(templates: TemplateEngine): number {
    let id = this.engineIds.get(templates);
    if (id === undefined) this.engineIds.set(templates, (id = this.nextEngineId++));
    return id;
  }
}
