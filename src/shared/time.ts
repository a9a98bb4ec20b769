// Timestamps on the wire: ISO-8601 UTC with Z.
export const iso = (at: Date): string => at.toISOString();
export const isoOrNull = (at: Date | null | undefined): string | null => (at ? at.toISOString() : null);
