-- Idempotency keys belong to the tenant and the user (an API key: the key), not the session (decision 1620).
-- Stored keys keep their rows: a key stored under a session id is simply not met again and expires within 24 h.
ALTER TABLE "idempotency_keys" RENAME COLUMN "credential_id" TO "scope_id";
