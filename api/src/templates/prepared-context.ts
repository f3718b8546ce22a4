/**
 * A render context already copied into template data (template-data.ts), for one or several renders.
 * It never changes after it is made: the renderers may therefore keep it between renders (the isolate
 * holds the last one parsed; the host then knows it by identity, without serialising it again), and
 * its JSON text is made once, when a renderer first needs it.
 */
import type { TemplateDataUse } from './template-data';

export class PreparedContext {
  private text: string | undefined;
  private frozen = false;

  constructor(
    /** Plain data; owned by this object (nothing else holds a reference to write through). */
    readonly data: Record<string, unknown>,
    /** What the copy counted against the context caps; a render's `extra` adds to it. */
    readonly used: TemplateDataUse = { nodes: 0, chars: 0 },
  ) {}

  /** The data as JSON text, made on first use. */
  json(): string {
    this.text ??= JSON.stringify(this.data);
    return this.text;
  }

  /** Deep-freezes the data, once: a render in-process that reuses it can then not change it for the next. */
  freeze(): Record<string, unknown> {
    if (!this.frozen) {
      deepFreeze(this.data);
      this.frozen = true;
    }
    return this.data;
  }
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
}
