/**
 * How many turns run at once on this instance (issue 14): `total` slots, of which one tenant holds at
 * most `perTenant`. A turn waits for its slot before it takes its lane, so a waiting turn holds no
 * lane, no lease and no database connection. Waiters are served in order, except that one whose
 * tenant is at its share lets the others pass: one tenant's turns that wait on slow models or client
 * tools cannot take every slot. (A plain semaphore such as p-limit has no per-key share.)
 */
export class TurnSlots {
  private running = 0;
  private readonly byTenant = new Map<string, number>();
  private readonly waiting: { readonly tenantId: string; readonly go: () => void }[] = [];

  constructor(readonly total: number, readonly perTenant: number) {
    if (!(total >= 1) || !(perTenant >= 1)) throw new RangeError('TurnSlots needs at least one slot in all and per tenant');
  }

  /** Resolves with the release of a slot for `tenantId`, once one is free within its share. */
  async acquire(tenantId: string): Promise<() => void> {
    // Every release wakes the waiters that fit, so those still waiting do not: one that fits goes now.
    if (this.fits(tenantId)) this.take(tenantId);
    else await new Promise<void>((go) => this.waiting.push({ tenantId, go }));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      const held = (this.byTenant.get(tenantId) ?? 1) - 1;
      if (held === 0) this.byTenant.delete(tenantId);
      else this.byTenant.set(tenantId, held);
      this.wake();
    };
  }

  /** For diagnostics and tests: slots in use, per tenant, and turns waiting. */
  get usage(): { readonly running: number; readonly waiting: number; readonly byTenant: ReadonlyMap<string, number> } {
    return { running: this.running, waiting: this.waiting.length, byTenant: new Map(this.byTenant) };
  }

  private fits(tenantId: string): boolean {
    return this.running < this.total && (this.byTenant.get(tenantId) ?? 0) < this.perTenant;
  }

  private take(tenantId: string): void {
    this.running++;
    this.byTenant.set(tenantId, (this.byTenant.get(tenantId) ?? 0) + 1);
  }

  private wake(): void {
    for (let i = 0; i < this.waiting.length && this.running < this.total;) {
      const next = this.waiting[i]!;
      if (!this.fits(next.tenantId)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.take(next.tenantId);
      next.go();
    }
  }
}
