import { RE2JS } from 're2js';

/**
 * The character-class vocabulary of java.util.regex that java-regex.ts translates: `\h`/`\v`,
 * the ASCII POSIX classes (`\p{Alpha}`), `java.lang.Character` classes and `Is…` properties. Sets
 * are class contents in RE2 syntax (`\x{…}` for code points); `jsClass` gives the JavaScript `u`-mode
 * spelling of the same contents, for the twin that the backtracking analyser reads.
 */
export const HSPACE = ' \\t\\xA0\\x{1680}\\x{180E}\\x{2000}-\\x{200A}\\x{202F}\\x{205F}\\x{3000}';
export const VSPACE = '\\n\\x0B\\f\\r\\x85\\x{2028}\\x{2029}';

/** RE2 class contents (only the sets of this module and code points java-regex.ts writes) → JavaScript `u` syntax. */
export function jsClass(contents: string): string {
  return contents.replace(/\\x\{([0-9A-Fa-f]+)\}/g, '\\u{$1}');
}

/** java.util.regex POSIX classes: US-ASCII only, as Java has them without UNICODE_CHARACTER_CLASS. */
export const POSIX: Readonly<Record<string, string>> = {
  Lower: 'a-z',
  Upper: 'A-Z',
  ASCII: '\\x00-\\x7F',
  Alpha: 'a-zA-Z',
  Digit: '0-9',
  Alnum: 'a-zA-Z0-9',
  Punct: '!-\\/:-@\\[-`{-~',
  Graph: '!-~',
  Print: ' -~',
  Blank: ' \\t',
  Cntrl: '\\x00-\\x1F\\x7F',
  XDigit: '0-9a-fA-F',
  Space: ' \\t\\n\\x0B\\f\\r',
};

const JAVA_CHARACTER: Readonly<Record<string, string>> = {
  javaLowerCase: 'Lowercase',
  javaUpperCase: 'Uppercase',
  javaAlphabetic: 'Alphabetic',
  javaLetter: 'L',
  javaDigit: 'Nd',
  javaWhitespace: 'White_Space',
  IsAlphabetic: 'Alphabetic',
  IsLetter: 'L',
  IsDigit: 'Nd',
  IsLowercase: 'Lowercase',
  IsUppercase: 'Uppercase',
  IsWhite_Space: 'White_Space',
  IsWhiteSpace: 'White_Space',
  IsPunctuation: 'P',
  IsControl: 'Cc',
  IsIdeographic: 'Ideographic',
  IsHex_Digit: 'Hex_Digit',
};

/** A property's name in both dialects: `\p{Greek}` in RE2 is `\p{Script=Greek}` in JavaScript. */
export interface PropertyNames {
  readonly re2: string;
  readonly js: string;
}

/** Java property names → RE2 and ECMAScript ones; null when RE2 has no equivalent (blocks, `Ideographic`). */
export function javaProperty(name: string): PropertyNames | null {
  const mapped = JAVA_CHARACTER[name];
  if (mapped) return both(mapped, mapped);
  if (/^In[A-Z]/.test(name) || /^(blk|block)=/i.test(name)) return null;
  const keyed = /^(sc|script|gc|general_category)=(.+)$/i.exec(name);
  if (keyed) {
    const value = keyed[2]!;
    return both(value, `${keyed[1]!.toLowerCase().startsWith('s') ? 'Script' : 'General_Category'}=${value}`);
  }
  const bare = name.startsWith('Is') ? name.slice(2) : name;
  return both(bare, isJsProperty(bare) ? bare : `Script=${bare}`);
}

function both(re2: string, js: string): PropertyNames | null {
  return isRe2Property(re2) && isJsProperty(js) ? { re2, js } : null;
}

// Both probes compile a fixed one-class pattern and never run it on text.
function isRe2Property(name: string): boolean {
  if (!/^[A-Za-z_]+$/.test(name)) return false;
  try {
    RE2JS.compile(`\\p{${name}}`);
    return true;
  } catch {
    return false;
  }
}

function isJsProperty(name: string): boolean {
  try {
    new RegExp(`\\p{${name}}`, 'u');
    return true;
  } catch {
    return false;
  }
}
