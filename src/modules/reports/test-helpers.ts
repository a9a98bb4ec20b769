// Test helpers for reports: request bodies and multipart payloads built by hand, as a client library would.
import { randomBytes } from 'node:crypto';

export function reportBody(overrides: Record<string, unknown> = {}) {
  return { report: { title: 'Weekly summary', grants: [{ type: 'all_admins' }], ...overrides } };
}

export interface FilePart {
  name: string;
  contentType: string;
  data: Buffer;
}

/** A multipart/form-data payload: an optional `report` JSON part, then an optional `file` part. */
export function multipart(fields: { report?: unknown } | null, file: FilePart | null): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----tourbook${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  if (fields?.report !== undefined) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="report"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(fields.report)}\r\n`));
  }
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.contentType}\r\n\r\n`));
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
