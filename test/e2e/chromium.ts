/**
 * Debian's Chromium for the dashboard tests, through playwright-core (never a browser download):
 * where it is, whether it is there, where screenshots go, the wait that only catches hangs, and the
 * one way every browser test launches it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
export const SHOTS = path.join(__dirname, 'screenshots');
// Waits only catch hangs: a loaded 2-core machine renders slowly.
export const WAIT = 60_000;

/** Headless, sandbox off (CI runs as root), no background traffic. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
