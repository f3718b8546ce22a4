import { describe, expect, it } from 'vitest';
import { ISOLATED_VM_PACKAGES, loadIsolatedVm, SandboxUnavailableError } from './isolated-vm';

describe('loadIsolatedVm', () => {
  it('loads the newest isolated-vm line that fits the running Node and runs a script in it', () => {
    const loaded = loadIsolatedVm();
    expect(ISOLATED_VM_PACKAGES).toContain(loaded.packageName);
    // The line the issue-12 matrix expects for this Node's major (docs/dependencies.md).
    const major = Number(process.versions.node.split('.')[0]);
    const expected = major >= 24 ? 'isolated-vm-7' : major >= 22 ? 'isolated-vm-6' : 'isolated-vm-5';
    expect(loaded.packageName).toBe(expected);
    expect(loaded.version.split('.')[0]).toBe(expected.slice('isolated-vm-'.length));
    const isolate = new loaded.module.Isolate({ memoryLimit: 16 });
    try {
      expect(isolate.compileScriptSync('6 * 7').runSync(isolate.createContextSync())).toBe(42);
    } finally {
      isolate.dispose();
    }
  });

  it('passes over missing packages and names each one it tried when none loads', () => {
    expect(loadIsolatedVm(['isolated-vm-does-not-exist', ...ISOLATED_VM_PACKAGES]).packageName).toBe(loadIsolatedVm().packageName);
    let error: unknown;
    try {
      loadIsolatedVm(['isolated-vm-1', 'isolated-vm-2']);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SandboxUnavailableError);
    const message = (error as Error).message;
    expect(message).toContain(`No isolated-vm build loads on Node ${process.version}`);
    expect(message).toContain('isolated-vm-1: not installed');
    expect(message).toContain('isolated-vm-2: not installed');
    expect(message).toContain('Node 20, 22, 24 and 26');
  });
});
