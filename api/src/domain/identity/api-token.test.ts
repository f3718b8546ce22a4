import { describe, expect, it } from 'vitest';
import { generateApiToken, hashApiToken } from './api-token';

describe('hashApiToken', () => {
  it('is the hex sha-256 of the token, as stored since the first migration (existing tokens keep working)', () => {
    expect(hashApiToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    // UTF-8, like createHash().update(token, 'utf8') before
    expect(hashApiToken('vance_é')).toBe('afc718f6534d814ca05e54c6c362c2580f113cf396840a1f21dc469ec2c9d0ed');
  });

  it('tells tokens apart', () => {
    expect(hashApiToken(generateApiToken())).not.toBe(hashApiToken(generateApiToken()));
  });
});
