/**
 * The character-class vocabulary of java.util.regex that java-regex.ts translates: `\h`/`\v`,
 * the ASCII POSIX classes (`\p{Alpha}`), `java.lang.Character` classes and `Is…` properties.
 */
export const HSPACE = ' \\t\\xA0\\u1680\\u180E\\u2000-\\u200A\\u202F\\u205F\\u3000';
export const VSPACE = '\\n\\x0B\\f\\r\\x85\\u2028\\u2029';

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

/** Java property names → ECMAScript ones; null when there is no equivalent (blocks). */
export function javaPropertyToJs(name: string): string | null {
  const mapped = JAVA_CHARACTER[name];
  if (mapped) return mapped;
  if (/^In[A-Z]/.test(name) || /^(blk|block)=/i.test(name)) return null;
  const keyed = /^(sc|script|gc|general_category)=(.+)$/i.exec(name);
  if (keyed) return `${keyed[1]!.toLowerCase().startsWith('s') ? 'Script' : 'General_Category'}=${keyed[2]}`;
  const bare = name.startsWith('Is') ? name.slice(2) : name;
  if (isJsProperty(bare)) return bare;
  if (isJsProperty(`Script=${bare}`)) return `Script=${bare}`;
  return null;
}

function isJsProperty(name: string): boolean {
  try {
    new RegExp(`\\p{${name}}`, 'u');
    return true;
  } catch {
    return false;
  }
}
