import { expect, it } from 'vitest';
import { describeOnPostgres, faultRig, gqlAt, plainProcesses } from './child-vance';

// Issue 14: `kill -9` an instance while sendMessage calls and turns are in flight on it (before: 1
// stranded message in 30 on PostgreSQL — stored, its turn never requested, waiting for the next
// message; a restart did not pick it up). Another instance, already running, must answer every
// stored message exactly once, and every acknowledged message must be stored.
const LEASE_MS = 3_000;

describeOnPostgres('kill -9 during sendMessage', (driver) => {
  const rig = faultRig(driver);

  it('answers every stored message once after the instance that took them dies mid-flight', async () => {
    const b = await rig.startChild({ VANCE_LANE_LEASE_MS: String(LEASE_MS) });
    const B = b.url;
    const ids = await plainProcesses(B, 'killed', 4);
    const a = await rig.startInstance(await rig.reopen(), { VANCE_LANE_LEASE_MS: String(LEASE_MS), VANCE_TURN_SWEEP_MS: '100' });

    // 40 messages in flight on B; B dies once the first 8 are acknowledged.
    const acked: string[] = [];
    let killed = false;
    const kill = async () => {
      if (killed) return;
      killed = true;
      b.child.kill('SIGKILL');
    };
    const sends = Array.from({ length: 40 }, (_, i) => (async () => {
      const text = `message ${i}`;
      try {
        const r = await gqlAt(B, `mutation M($id: ID!, $t: String!) { sendMessage(processId: $id, text: $t) { id } }`, { id: ids[i % ids.length], t: text });
        if (!r.errors) acked.push(text);
        if (acked.length >= 8) await kill();
      } catch {
        /* the connection died with B: not acknowledged, may or may not be stored */
      }
    })());
    await Promise.all(sends);
    await kill();
    await new Promise((resolve) => (b.child.exitCode !== null || b.child.signalCode !== null ? resolve(null) : b.child.once('exit', resolve)));
    expect(acked.length).toBeGreaterThanOrEqual(8);

    // A answers what B left: nothing pending, nothing running. The deadline only catches a hang; at
    // it the test says what was left (messages, turns, requests, leases) instead of timing out mute.
    const state = async (id: string) => (await a.gql(`query P($id: ID!) { process(id: $id) { pending { id } } turns(processId: $id) { status } }`, { id })).data!;
    const settled = async () => {
      for (const id of ids) {
        const s = await state(id);
        if (s.process.pending.length > 0 || s.turns.some((t: { status: string }) => t.status === 'RUNNING')) return false;
      }
      return true;
    };
    const deadline = Date.now() + 80_000;
    while (!(await settled()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    if (!(await settled())) {
      const control = await rig.control();
      const rows = async (sql: string) => JSON.stringify((await control.query(sql, [ids])).rows);
      throw new Error(`A left work undone after 80 s:
        inbox ${await rows(`SELECT process_id, content, attempts, failure, failed_at FROM process_inbox WHERE process_id = ANY($1::uuid[])`)}
        turns ${await rows(`SELECT process_id, id, status, started_at, finished_at FROM turns WHERE process_id = ANY($1::uuid[]) AND status = 'RUNNING'`)}
        processes ${await rows(`SELECT id, status, turn_requested_at FROM processes WHERE id = ANY($1::uuid[])`)}
        leases ${await rows(`SELECT lane_key, owner, token, expires_at, now() AS now FROM lane_leases WHERE $1::uuid[] IS NOT NULL`)}`);
    }

    const logged: string[] = [];
    for (const id of ids) {
      const log = (await a.gql(`query L($id: ID!) { messages(processId: $id) { role content } }`, { id })).data!.messages as { role: string; content: string }[];
      logged.push(...log.filter((m) => m.role === 'user').map((m) => m.content));
      if (log.length > 0) expect(log.at(-1)!.role, `the last message of ${id} is answered`).toBe('assistant');
      const statuses = (await state(id)).turns.map((t: { status: string }) => t.status);
      expect(statuses.every((s: string) => s === 'FINISHED' || s === 'INTERRUPTED'), statuses.join(' ')).toBe(true);
    }
    console.log(`kill -9 with 40 sends in flight: ${acked.length} acknowledged, ${logged.length} stored and answered`);
    expect(new Set(logged).size, 'no message logged twice').toBe(logged.length);
    for (const text of acked) expect(logged, `acknowledged '${text}' is stored`).toContain(text);
  });
});
