// Identifiers: UUIDv7 generated in TypeScript (PostgreSQL 15 has no uuidv7()).
import { uuidv7 } from 'uuidv7';

export const newId = (): string => uuidv7();

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID_RE.test(value);

export const NIL_UUID = '00000000-0000-0000-0000-000000000000';
