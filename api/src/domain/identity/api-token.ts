import { createHash, randomBytes } from 'node:crypto';

/**
 * Opaque API tokens: 32 random bytes, shown once; only their sha-256 is stored. A fast hash is
 * right here (unlike passwords) because the token has 256 bits of entropy.
 */
const PREFIX = 'vance_';

export function generateApiToken(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

export function hashApiToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
