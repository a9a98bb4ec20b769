// RFC 6266 Content-Disposition for a download: an ASCII fallback `filename` and the exact name as RFC 8187 `filename*`.

/** `attachment; filename="…"; filename*=UTF-8''…` — the fallback replaces what ASCII quoted-strings cannot carry. */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
