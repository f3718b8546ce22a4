/**
 * The parts as one Uint8Array with an ArrayBuffer of its own, always a copy: a Buffer's slice() is
 * a view into Node's shared pool, and a view into PGlite's memory is overwritten by the next
 * statement; neither can be transferred to another thread (Node 24: DataCloneError).
 */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  if (parts.length === 1) return new Uint8Array(parts[0]!);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
