import { hash, randomBytes } from 'node:crypto';

/**
 * Opaque API tokens: 32 random bytes, shown once; only their sha-256 is stored. A fast hash is
 * right here (unlike passwords) because the token has 256 bits of entropy.
 */
const PREFIX = 'vance_';

export function generateApiToken(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

/** One-shot `crypto.hash`: a quarter of createHash's cost, on every authenticated request (issue 18). */
export function hashApiToken(token: string): string {
  return hash('sha256', token, 'hex');
}
