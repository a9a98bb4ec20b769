// Webhook target checks: http(s) only, and only public unicast addresses (SSRF) unless private targets are allowed.
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * Why an address may not be a webhook target, or null when it is public unicast. Classification is ipaddr.js's
 * (its IANA special-purpose tables), not hand-written ranges (decision 0112):
 * - IPv4: only the `unicast` range passes (private, loopback, link-local, CGNAT, documentation, benchmarking,
 *   multicast, broadcast, reserved and the rest are refused).
 * - IPv6: only global unicast (2000::/3) whose range is `unicast` passes. That refuses NAT64 (64:ff9b::/96,
 *   64:ff9b:1::/48), IPv4-compatible (::a.b.c.d), the discard prefix (100::/64), unique and link-local, multicast,
 *   and, inside 2000::/3, 6to4 (2002::/16), Teredo (2001::/32), documentation (2001:db8::/32), benchmarking,
 *   ORCHID and AMT: forms that carry or tunnel to an IPv4 address the network decides, not us.
 * - IPv4-mapped (::ffff:a.b.c.d) is judged as the IPv4 address it carries: a socket to it goes to that address.
 */
export function addressProblem(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    else {
      const range = v6.range();
      if (!v6.match(ipaddr.IPv6.parse('2000::'), 3) || range !== 'unicast') {
        return `${address} is not a public unicast address (${range === 'unicast' ? 'reserved' : range})`;
      }
      return null;
    }
  }
  const range = parsed.range();
  return range === 'unicast' ? null : `${address} is not a public unicast address (${range})`;
}

export const isPrivateAddress = (address: string): boolean => addressProblem(address) !== null;

/** The URL's host as an IP address when it is a literal (`[::1]` unbracketed), else null. */
export function ipLiteral(hostname: string): string | null {
  const host = hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(host) ? host : null;
}

export type TargetProblem = 'invalid_url' | 'private_target' | 'unresolvable_host';

/** Checks a subscription URL when it is saved; the delivery client checks the resolved address again at connect time. */
export async function checkTarget(url: string, allowPrivate: boolean): Promise<TargetProblem | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'invalid_url';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'invalid_url';
  if (parsed.username || parsed.password) return 'invalid_url';
  if (allowPrivate) return null;
  // WHATWG URL parsing already turned 0x7f.1, 2130706433 and the like into dotted IPv4.
  const literal = ipLiteral(parsed.hostname);
  if (literal) return isPrivateAddress(literal) ? 'private_target' : null;
  try {
    const addresses = await lookup(parsed.hostname, { all: true, verbatim: true });
    return addresses.some((a) => isPrivateAddress(a.address)) ? 'private_target' : null;
  } catch {
    return 'unresolvable_host';
  }
}
