// The headers every page of ours carries (decision 1000): a CSP that allows only our own origin — no inline script,
// no eval, no other host — and no framing.

/** `extra` adds sources a page needs beyond 'self' (an operator's MAP_TILE_URL host for the map). */
export function contentSecurityPolicy(extra: { connect?: string[]; img?: string[]; style?: string[] } = {}): string {
  const connect = ["'self'", ...(extra.connect ?? [])].join(' ');
  const style = ["'self'", ...(extra.style ?? [])].join(' ');
  const img = ["'self'", 'data:', 'blob:', ...(extra.img ?? [])].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src ${style}`,
    `img-src ${img}`,
    "font-src 'self'",
    `connect-src ${connect}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function pageHeaders(options: { referrer?: 'same-origin' | 'no-referrer'; permissions?: string; csp: string }): Record<string, string> {
  return {
    'content-security-policy': options.csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': options.referrer ?? 'same-origin',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': options.permissions ?? 'camera=(), geolocation=(), microphone=()',
    'x-frame-options': 'DENY',
  };
}
