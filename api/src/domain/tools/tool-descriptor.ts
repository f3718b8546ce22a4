/**
 * What a turn knows about a tool before calling it: its name, its labels (the `@label` selectors of
 * seed 004 §6.1/§6.2 address capabilities, not names) and a one-line description. The ToolCatalog
 * port lists the server tools a turn may use; client tools (seed 004 §6.2) arrive per turn from
 * the connected client and go through the same selector resolver (select.ts).
 * Tool implementations live with the turns (processes/), not here.
 */
export interface ToolDescriptor {
  readonly name: string;
  /** Lower-case, without the `@` (`write`, `side-effect`, …). */
  readonly labels: readonly string[];
  readonly description?: string;
  /** Offered without its schema unless a recipe's add names it (a client tool registered deferred, seed 004 §6.2). */
  readonly deferred?: boolean;
}

export interface ToolCatalog {
  /** Every server tool a turn may be offered, before recipe, profile and skill adjustments. */
  list(): readonly ToolDescriptor[];
}

/** A fixed catalog: the built-in tools, or a test's handful. */
export class StaticToolCatalog implements ToolCatalog {
  private readonly tools: readonly ToolDescriptor[];

  constructor(tools: Iterable<ToolDescriptor>) {
    const byName = new Map<string, ToolDescriptor>();
    for (const tool of tools) {
      byName.set(tool.name, Object.freeze({ ...tool, labels: Object.freeze(tool.labels.map((l) => l.toLowerCase())) }));
    }
    this.tools = Object.freeze([...byName.values()]);
  }

  list(): readonly ToolDescriptor[] {
    return this.tools;
  }
}
