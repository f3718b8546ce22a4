import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { migrate } from './persistence';
import { DEFAULT_TEMPLATE_ROOT, isInitialised, templateDir } from './persistence/pglite-template';

/**
 * `npm run build`'s last step: makes the packaged template that a fresh embedded data directory
 * starts from (pglite-template.ts) — once per PGlite version and set of migrations; otherwise it
 * does nothing. It is built beside and renamed into place, so a build cut short leaves no template.
 */
async function main(): Promise<void> {
  const root = process.argv[2] ? path.resolve(process.argv[2]) : DEFAULT_TEMPLATE_ROOT;
  const target = templateDir(root);
  if (isInitialised(target)) return;
  const building = `${target}.${process.pid}.tmp`;
  fs.rmSync(building, { recursive: true, force: true });
  const started = Date.now();
  await migrate({ dataDir: building });
  for (const old of fs.readdirSync(root)) {
    if (path.join(root, old) !== building) fs.rmSync(path.join(root, old), { recursive: true, force: true });
  }
  fs.renameSync(building, target);
  console.log(`built the embedded database template ${path.relative(process.cwd(), target)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((err: unknown) => {
  console.error('Could not build the embedded database template:', err);
  process.exit(1);
});
