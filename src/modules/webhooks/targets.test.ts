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
    // IPv6 forms that embed or tunnel to IPv4 (issue 11, finding 3), and the other special-purpose ranges.
    ['64:ff9b::a9fe:a9fe', true], // NAT64 of 169.254.169.254
    ['64:ff9b::5db8:d70e', true], // NAT64 even of a public IPv4: the network, not us, picks the target
    ['64:ff9b:1::a9fe:a9fe', true], // local-use NAT64
    ['::127.0.0.1', true], // IPv4-compatible
    ['::169.254.169.254', true],
    ['::a9fe:a9fe', true],
    ['::5db8:d70e', true],
    ['2002:7f00:1::', true], // 6to4 of 127.0.0.1
    ['2002:5db8:d70e::1', true], // 6to4 of a public IPv4
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', true], // Teredo
    ['::ffff:0:7f00:1', true], // RFC 6145 IPv4-translated 127.0.0.1
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['100::1', true], // discard
    ['2001:db8::1', true], // documentation
    ['2001:2::1', true], // benchmarking
    ['2001:10::1', true], // ORCHID
    ['fec0::1', true], // site-local
    ['ff02::1', true],
    ['::', true],
    ['192.0.2.1', true], // TEST-NET-1
    ['198.51.100.7', true],
    ['203.0.113.9', true],
    ['198.18.0.1', true], // benchmarking
    ['192.88.99.1', true], // 6to4 relay anycast
    ['255.255.255.255', true],
    ['224.0.0.1', true],
    ['240.0.0.1', true],
    ['not-an-ip', true],
    ['8.8.8.8', false],
    ['2001:4860:4860::8888', false],
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
    ['http://[64:ff9b::a9fe:a9fe]/latest/meta-data/', false, 'private_target'],
    ['http://[::127.0.0.1]/', false, 'private_target'],
    ['http://[::169.254.169.254]/', false, 'private_target'],
    ['http://[::a9fe:a9fe]/', false, 'private_target'],
    ['http://[2002:7f00:1::]/', false, 'private_target'],
    ['http://[::ffff:0:7f00:1]/', false, 'private_target'],
    ['http://[64:ff9b:1::a9fe:a9fe]/', false, 'private_target'],
    ['http://[100::1]/', false, 'private_target'],
    ['http://[2001:db8::1]/', false, 'private_target'],
    ['http://0x7f.1/', false, 'private_target'],
    ['http://2130706433/', false, 'private_target'],
    ['http://[2001:4860:4860::8888]/', false, null],
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
