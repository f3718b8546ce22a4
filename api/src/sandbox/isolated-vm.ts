/**
 * Loads the isolated-vm build that fits the running Node, and declares the part of its API the
 * sandbox uses.
 *
 * No single isolated-vm line builds on every Node we support (issue 12, docs/dependencies.md):
 * 5.0.x compiles on Node 20 (and 22) but not on 24+ (V8's headers need C++20); 6.x needs Node ≥ 22
 * and ships prebuilt binaries for 22 and 24; 7.x needs Node ≥ 24 and ships them for 24 and 26.
 * `api/package.json` therefore lists the three lines as aliased optional dependencies; npm skips the
 * ones whose `engines` exclude the running Node and drops the ones that fail to build, and this
 * module takes the newest that loads.
 *
 * The types are our own (the subset below) because no one of the three packages is present on
 * every Node, so none of their `.d.ts` files can be imported; all three lines agree on this subset.
 */
import { createRequire } from 'node:module';

/* eslint-disable @typescript-eslint/no-namespace -- a type-only namespace keeps `ivm.Isolate` spelled as isolated-vm does */
export declare namespace ivm {
  interface TransferOptions {
    reference?: boolean;
    copy?: boolean;
    externalCopy?: boolean;
    promise?: boolean;
  }
  interface RunOptions extends TransferOptions {
    timeout?: number;
    /** How the arguments go in and the result comes out (Reference.apply*). */
    arguments?: TransferOptions;
    result?: TransferOptions;
  }
  interface CompileOptions {
    filename?: string;
    cachedData?: ExternalCopy<ArrayBuffer>;
    produceCachedData?: boolean;
  }
  interface CachedDataResult {
    cachedData?: ExternalCopy<ArrayBuffer>;
    cachedDataRejected?: boolean;
  }
  interface ExternalCopy<T> {
    copy(): T;
    release(): void;
  }
  interface Reference<T = unknown> {
    readonly typeof: string;
    apply(receiver: unknown, args?: unknown[], options?: RunOptions): Promise<unknown>;
    applySync(receiver: unknown, args?: unknown[], options?: RunOptions): T extends (...a: never[]) => infer R ? R : unknown;
    release(): void;
  }
  interface Script {
    run(context: Context, options?: RunOptions): Promise<unknown>;
    runSync(context: Context, options?: RunOptions): unknown;
    release(): void;
  }
  interface Context {
    readonly global: Reference<Record<string, unknown>> & {
      getSync(name: string, options?: TransferOptions): unknown;
      setSync(name: string, value: unknown, options?: TransferOptions): boolean;
    };
    eval(code: string, options?: RunOptions & { filename?: string }): Promise<unknown>;
    evalSync(code: string, options?: RunOptions & { filename?: string }): unknown;
    release(): void;
  }
  interface HeapStatistics {
    total_heap_size: number;
    used_heap_size: number;
    externally_allocated_size: number;
  }
  interface Isolate {
    readonly isDisposed: boolean;
    getHeapStatisticsSync(): HeapStatistics;
    readonly cpuTime: bigint;
    readonly wallTime: bigint;
    compileScript(code: string, options?: CompileOptions): Promise<Script & CachedDataResult>;
    compileScriptSync(code: string, options?: CompileOptions): Script & CachedDataResult;
    createContextSync(): Context;
    dispose(): void;
  }
}
/* eslint-enable @typescript-eslint/no-namespace */

/** What the sandbox needs of the isolated-vm module. */
export interface IsolatedVm {
  readonly Isolate: new (options?: { memoryLimit?: number }) => ivm.Isolate;
  readonly Reference: new <T>(value: T) => ivm.Reference<T>;
}

/** The aliased packages (api/package.json `optionalDependencies`), newest line first. */
export const ISOLATED_VM_PACKAGES = ['isolated-vm-7', 'isolated-vm-6', 'isolated-vm-5'] as const;

export interface LoadedIsolatedVm {
  readonly module: IsolatedVm;
  /** The alias that loaded, e.g. `isolated-vm-7`, and the isolated-vm version it holds. */
  readonly packageName: string;
  readonly version: string;
}

/** No isolated-vm build loads on this Node; the message says what was tried and what to do. */
export class SandboxUnavailableError extends Error {
  constructor(readonly tried: readonly { readonly packageName: string; readonly reason: string }[]) {
    super([
      `No isolated-vm build loads on Node ${process.version} (ABI ${process.versions.modules}); Vance needs one to run skill scripts, guards and templates.`,
      ...tried.map((t) => `  ${t.packageName}: ${t.reason}`),
      'Vance supports Node 20, 22, 24 and 26 (docs/dependencies.md). On a supported Node, `npm install` (or `npm rebuild isolated-vm`) builds the',
      'missing one; a source build needs python3, make and a C++ compiler, and npm_config_nodedir pointing at the Node headers when they cannot be downloaded.',
    ].join('\n'));
    this.name = 'SandboxUnavailableError';
  }
}

let loaded: LoadedIsolatedVm | undefined;

/**
 * The first of `packages` that loads, memoized. A package that is missing (npm skipped it for its
 * engines or dropped its failed build) or whose binary does not fit this Node is passed over.
 */
export function loadIsolatedVm(packages: readonly string[] = ISOLATED_VM_PACKAGES): LoadedIsolatedVm {
  if (loaded && packages === ISOLATED_VM_PACKAGES) return loaded;
  const load = createRequire(__filename);
  const tried: { packageName: string; reason: string }[] = [];
  for (const packageName of packages) {
    try {
      const module = load(packageName) as IsolatedVm;
      const version = (load(`${packageName}/package.json`) as { version: string }).version;
      const result = { module, packageName, version };
      if (packages === ISOLATED_VM_PACKAGES) loaded = result;
      return result;
    } catch (error) {
      tried.push({ packageName, reason: reasonOf(error) });
    }
  }
  throw new SandboxUnavailableError(tried);
}

/** The isolated-vm module for this Node (throws SandboxUnavailableError when there is none). */
export function isolatedVm(): IsolatedVm {
  return loadIsolatedVm().module;
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // The package itself missing, not a file inside it (a half-removed build says which file).
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (code === 'MODULE_NOT_FOUND' && /^Cannot find module '[^'/]+'/.test(message)) return 'not installed';
  return message.split('\n')[0] ?? message;
}
