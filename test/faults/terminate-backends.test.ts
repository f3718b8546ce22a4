import { expect, it } from 'vitest';
import type { PgEventBus } from '../../api/src/persistence';
import { eventually } from '../graphql/harness';
import { describeOnPostgres, faultRig, logSummary, plainProcesses } from './child-vance';
import { attempt, expectMixHeld, FAULT_ENV, mixUnderFault } from './write-mix';

// Issue 14: three instances (one in-process, two real processes) on one schema, a steady mix of
// writes from outside, and every backend of the instances terminated again and again — pool
// connections, the event buses' LISTEN (`vance-events`) and NOTIFY (`vance-notify`) connections,
// lease heartbeats. The schema lives in a database of the test's own, so "every backend" is every
// connection of that database but the test's control connection, and nothing of other suites.
const ROUNDS = 8;

describeOnPostgres('every backend terminated while writes run', (driver) => {
  const rig = faultRig(driver, { ownDatabase: true });

  it('loses no acknowledged write, applies no failed one, answers every stored message once, and every subscriber sees every event once', async () => {
    const a = await rig.startInstance(await rig.reopen(), FAULT_ENV);
    const [b, c] = await Promise.all([rig.startChild(FAULT_ENV), rig.startChild(FAULT_ENV)]);
    const urls = [a.url, b.url, c.url];
    const processIds = await plainProcesses(a.url, 'faults', 4);
    const control = await rig.control();
    const report = await mixUnderFault({
      urls, project: 'faults', processIds, control, tag: 'terminate', durationMs: 15_000,
      async fault(running) {
        const killed: Record<string, number> = {};
        let rounds = 0;
        for (; rounds < ROUNDS && running(); rounds++) {
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          // The pids first (OFFSET 0 keeps the planner from merging the filter into the terminating call): never our own.
          const { rows } = await control.query<{ app: string }>(
            `SELECT app FROM (SELECT pid, application_name AS app FROM pg_stat_activity
               WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' OFFSET 0) s
             WHERE pg_terminate_backend(pid)`);
          for (const { app } of rows) killed[app || '(none)'] = (killed[app || '(none)'] ?? 0) + 1;
        }
        return `${rounds} rounds of pg_terminate_backend on every backend: ${JSON.stringify(killed)}`;
      },
    });
    expectMixHeld(report);
    // Every instance lived through it and serves again, its event bus listening.
    for (const child of [b, c]) expect(child.child.exitCode ?? child.child.signalCode, child.errors.slice(0, 5).join('\n')).toBeNull();
    for (const url of urls) await eventually(async () => (await attempt(url, '{ me { login } }', {})).outcome === 'ok', 100);
    await eventually(() => (a.vance.services.bus as PgEventBus).listenerPid !== null, 100);
    console.log(`the children's warnings and errors:\n${logSummary([b, c])}`);
  }, 300_000); // the write mix, up to 60 s of settling, 30 s for the subscribers: deadlines that only catch hangs
});
