// Blob keys: the one rule every store applies before touching a path or a bucket.

/** Keys are path-like (`reports/<tenant>/<id>`): refuse anything that could climb out of a directory or bucket prefix. */
export function assertBlobKey(key: string): void {
  if (!/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/.test(key) || key.split('/').some((part) => part === '.' || part === '..')) {
    throw new Error(`invalid blob key ${JSON.stringify(key)}`);
  }
}
