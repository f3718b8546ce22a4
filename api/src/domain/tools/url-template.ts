/**
 * URL templates of HTTP tool documents: `https://api.example/v1/{city}/now?units={units}`. The
 * scheme, host and port are literal — no placeholder before the path — so arguments can never
 * choose where a request (and the secrets bound to that origin) goes; each argument is
 * percent-encoded as one component, so it cannot add a path segment, a query parameter or a fragment.
 */
export interface UrlTemplate {
  readonly text: string;
  /** `scheme://host[:port]`, as URL.origin spells it. */
  readonly origin: string;
  readonly placeholders: readonly string[];
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The template, or why it is not one. */
export function parseUrlTemplate(text: string): UrlTemplate | { readonly problem: string } {
  const match = /^(https?):\/\/([^/?#]*)/i.exec(text);
  if (!match) return { problem: 'url must start with https:// or http:// and a host' };
  const authority = match[2] ?? '';
  if (authority === '' || /[{}]/.test(authority)) return { problem: 'the scheme, host and port of url are literal: put {placeholders} in the path or query only' };
  if (authority.includes('@')) return { problem: 'url must not carry user:password@; use headers with settings' };
  let origin: string;
  try {
    origin = new URL(`${match[1]}://${authority}/`).origin;
  } catch {
    return { problem: `'${match[1]}://${authority}' is not a valid origin` };
  }
  const rest = text.slice(match[0].length);
  const stray = rest.replace(PLACEHOLDER, '').match(/[{}]/);
  if (stray) return { problem: "url has a '{' or '}' that is not a {placeholder} (letters, digits and _)" };
  const placeholders = [...new Set([...rest.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
  return { text, origin, placeholders };
}

/** The URL with each placeholder replaced by its argument, percent-encoded; absent arguments become empty. */
export function expandUrlTemplate(template: UrlTemplate, args: Readonly<Record<string, unknown>>): URL {
  const expanded = template.text.replace(PLACEHOLDER, (_whole, name: string) => {
    const value = Object.prototype.hasOwnProperty.call(args, name) ? args[name] : undefined;
    if (value === undefined || value === null) return '';
    return encodeURIComponent(typeof value === 'object' ? JSON.stringify(value) : String(value));
  });
  const url = new URL(expanded);
  // Kept as a second check: the parse-time rule makes this unreachable, and a future edit must not make it reachable.
  if (url.origin !== template.origin) throw new Error(`the URL's origin changed from ${template.origin} to ${url.origin}`);
  return url;
}
