/**
 * The tokeniser of KEYWORDS triggers (DESIGN §10, seed 000 §4a), shared by the indexed matcher and
 * the reference matcher so both read a message the same way:
 *
 * - NFC first, so `abwägen` typed with a combining diaeresis is the same word as the precomposed one
 *   (a combining mark is neither a letter nor a digit and would otherwise split the word);
 * - lower-cased (locale-independent `toLowerCase`);
 * - split on runs of characters that are neither Unicode letters nor digits — for ASCII text exactly
 *   the seed's `[^a-z0-9]+`, so `abwägen` stays one token and `pull-request` is two;
 * - tokens shorter than two characters (code points) dropped. Phrase adjacency is read on what is
 *   left: `pull a request` contains the phrase `pull request`, as the keyword side drops the same way.
 */
// eslint-disable-next-line no-control-regex -- the ASCII range is the point
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
/** 1 for [A-Za-z0-9] (upper case only occurs in case-sensitive text), else 0. */
const ASCII_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_WORD[c] = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) ? 1 : 0;

/** A hand-rolled scan: a Unicode-property split costs ~4× as much on a pasted log (turn hot path). */
export function tokenize(text: string): string[] {
  return split(normalizeText(text, false));
}

/** `caseSensitive: true` (issue 8): the same split without lower-casing. */
export function tokenizeCased(text: string): string[] {
  return split(normalizeText(text, true));
}

/** NFC (skipped for ASCII) and, unless case-sensitive, lower-cased: the text keywords are looked for in. */
export function normalizeText(text: string, caseSensitive: boolean): string {
  const nfc = ASCII_ONLY.test(text) ? text : text.normalize('NFC');
  return caseSensitive ? nfc : nfc.toLowerCase();
}

function split(lowered: string): string[] {
  const tokens: string[] = [];
  let start = -1;
  let chars = 0;
  for (let i = 0; i < lowered.length; i++) {
    const code = lowered.charCodeAt(i);
    let word: boolean;
    let width = 1;
    if (code < 128) {
      word = ASCII_WORD[code] === 1;
    } else {
      const point = lowered.codePointAt(i)!;
      if (point > 0xffff) width = 2;
      word = WORD_CHAR.test(String.fromCodePoint(point));
    }
    if (word) {
      if (start < 0) {
        start = i;
        chars = 0;
      }
      chars++;
    } else if (start >= 0) {
      if (chars >= 2) tokens.push(lowered.slice(start, i));
      start = -1;
    }
    i += width - 1;
  }
  if (start >= 0 && chars >= 2) tokens.push(lowered.slice(start));
  return tokens;
}

/** The identity of a keyword after tokenisation: two spellings with the same tokens are one keyword. */
export function keywordKey(tokens: readonly string[]): string {
  return tokens.join(' ');
}

/** One distinct keyword of a KEYWORDS trigger: the first spelling as written, and its tokens. */
export interface DistinctKeyword {
  readonly written: string;
  /** Empty when the keyword has no token of two or more characters: it can never occur, but counts in n. */
  readonly tokens: readonly string[];
}

/**
 * "A keyword listed twice counts once" (DESIGN §10): keywords are the same when they tokenise the same
 * (`Pull-Request` and `pull request`). Keywords without tokens stay distinct by their lower-cased text.
 */
export function distinctKeywords(keywords: readonly string[], mode: KeywordMode = WHOLE_WORDS): DistinctKeyword[] {
  const seen = new Set<string>();
  const distinct: DistinctKeyword[] = [];
  for (const written of keywords) {
    const tokens = keywordUnits(written, mode);
    const key = tokens.length > 0 ? `t:${keywordKey(tokens)}` : `w:${mode.caseSensitive ? written : written.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    distinct.push({ written, tokens });
  }
  return distinct;
}

/** How a skill's keywords match (issue 8): `matchWholeWords` and `caseSensitive`. */
export interface KeywordMode {
  readonly matchWholeWords: boolean;
  readonly caseSensitive: boolean;
}

export const WHOLE_WORDS: KeywordMode = { matchWholeWords: true, caseSensitive: false };

/**
 * What a keyword is looked up as: its tokens (whole words, a phrase of several), or, with
 * `matchWholeWords: false`, one literal — the keyword normalised like the text (normalizeText) — that
 * may occur anywhere, also inside a word (lorebook semantics).
 */
export function keywordUnits(keyword: string, mode: KeywordMode): string[] {
  if (mode.matchWholeWords) return mode.caseSensitive ? tokenizeCased(keyword) : tokenize(keyword);
  const literal = normalizeText(keyword, mode.caseSensitive);
  return literal === '' ? [] : [literal];
}
