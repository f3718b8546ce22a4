/**
 * The self-contained functions a RenderCore is built from, in one object: passed as-is to
 * createRenderCore in-process, and serialised one by one (Function.prototype.toString) into the
 * isolate by sandbox/isolated-template-renderer.ts — so both renderers run exactly this code.
 */
import { createBudget } from './budget';
import { installCompileGuards } from './compile-guards';
import { createEnvironment } from './environment';
import { installPebbleCompat } from './pebble-compat';
import type { RenderCoreParts } from './render-core';
import { hardenRuntime } from './runtime-hardening';
import { installSafeFilters } from './safe-filters';

export const RENDER_CORE_PARTS: RenderCoreParts = Object.freeze({
  createBudget,
  hardenRuntime,
  installCompileGuards,
  createEnvironment,
  installPebbleCompat,
  installSafeFilters,
});
