import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { checkTarget, isPrivateAddress } from './targets.ts';
import { generateSecret, sign } from './signing.ts';

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.16.5.4', true],
    ['192.168.0.10', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['fe80::1', true],
    ['fd12:3456::1', true],
    ['::ffff:10.0.0.1', true],
    ['93.184.215.14', false],
    ['172.32.0.1', false],
    ['2606:4700::1111', false],
    ['::ffff:93.184.215.14', false],
  ])('%s → %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});

describe('checkTarget', () => {
  it.each([
    ['https://93.184.215.14/hook', false, null],
    ['http://127.0.0.1/hook', false, 'private_target'],
    ['http://127.0.0.1/hook', true, null],
    ['http://localhost:3000/hook', false, 'private_target'],
    ['http://[::1]/hook', false, 'private_target'],
    ['ftp://example.com/', true, 'invalid_url'],
    ['https://u:p@example.com/', true, 'invalid_url'],
    ['nonsense', true, 'invalid_url'],
  ])('%s (private allowed: %s) → %s', async (url, allowPrivate, expected) => {
    expect(await checkTarget(url, allowPrivate)).toBe(expected);
  });
});

describe('signing', () => {
  it('produces the signature the standardwebhooks library computes', () => {
    const secret = generateSecret();
    const at = new Date('2026-06-01T08:00:00Z');
    const ours = sign(secret, 'msg_1', at.getTime() / 1000, '{"a":1}');
    expect(ours).toBe(new Webhook(secret).sign('msg_1', at, '{"a":1}'));
  });
});
