/**
 * Random Java-style regex patterns for property tests: groups, alternations and quantified atoms
 * drawn from the caller's lists; `anchors` take no quantifier. Shared by the regex-translation and
 * required-literal property tests, which differ only in the atoms they draw from.
 */
export interface PatternAlphabet {
  readonly atoms: readonly string[];
  readonly quantifiers: readonly string[];
  readonly anchors: readonly string[];
}

export function randomPattern(random: () => number, alphabet: PatternAlphabet, depth = 0): string {
  const { atoms, quantifiers, anchors } = alphabet;
  const items = 1 + Math.floor(random() * 4);
  let out = '';
  for (let i = 0; i < items; i++) {
    const roll = random();
    let atom: string;
    if (depth < 2 && roll < 0.2) atom = `(${randomPattern(random, alphabet, depth + 1)})`;
    else if (depth < 2 && roll < 0.3) atom = `(?:${randomPattern(random, alphabet, depth + 1)}|${randomPattern(random, alphabet, depth + 1)})`;
    else atom = atoms[Math.floor(random() * atoms.length)]!;
    out += atom + (anchors.includes(atom) ? '' : quantifiers[Math.floor(random() * quantifiers.length)]!);
  }
  return random() < 0.15 ? `${out}|${randomPattern(random, alphabet, depth + 1)}` : out;
}
