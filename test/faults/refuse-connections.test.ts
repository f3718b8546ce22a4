import { expect, it } from 'vitest';
import type { PgEventBus } from '../../api/src/persistence';
import { eventually } from '../graphql/harness';
import { describeOnPostgres, faultRig, logSummary, plainProcesses } from './child-vance';
import { startPgProxy } from './pg-proxy';
import { attempt, expectMixHeld, FAULT_ENV, mixUnderFault } from './write-mix';

// Issue 14: two instances (one in-process, one real process) reach PostgreSQL through a TCP proxy
// (pg-proxy.ts, the network's test double). While a steady mix of writes runs, the proxy drops
// every connection and turns new ones away for 3 s, twice: once closing each new connection at once,
// once not listening at all (ECONNREFUSED); then it passes connections again.
const OUTAGE_MS = 3_000;

describeOnPostgres('connections refused for 3 s while writes run', (driver) => {
  const rig = faultRig(driver, { ownDatabase: true });

  it('loses no acknowledged write, applies no failed one, answers every stored message once, and every subscriber sees every event once', async () => {
    const proxy = await startPgProxy(rig.databaseUrl);
    const control = await rig.control();
    try {
      const a = await rig.startInstance(await rig.reopen(proxy.url), FAULT_ENV);
      const b = await rig.startChild({ ...FAULT_ENV, DATABASE_URL: proxy.url });
      const urls = [a.url, b.url];
      const processIds = await plainProcesses(a.url, 'outage', 4);
      const report = await mixUnderFault({
        urls, project: 'outage', processIds, control, tag: 'outage', durationMs: 16_000,
        async fault(running) {
          const done: string[] = [];
          for (const mode of ['close', 'refuse'] as const) {
            await new Promise((resolve) => setTimeout(resolve, 2_500));
            if (!running()) break;
            await proxy.outage(OUTAGE_MS, mode);
            done.push(mode);
          }
          return `outages of ${OUTAGE_MS} ms (${done.join(', ')}): ${JSON.stringify(proxy.stats)}`;
        },
      });
      expectMixHeld(report);
      expect(b.child.exitCode ?? b.child.signalCode, b.errors.slice(0, 5).join('\n')).toBeNull();
      for (const url of urls) await eventually(async () => (await attempt(url, '{ me { login } }', {})).outcome === 'ok', 100);
      await eventually(() => (a.vance.services.bus as PgEventBus).listenerPid !== null, 100);
      console.log(`the child's warnings and errors:\n${logSummary([b])}`);
    } finally {
      await proxy.close();
    }
  }, 300_000); // the write mix, up to 60 s of settling, 30 s for the subscribers: deadlines that only catch hangs
});
