// Tracking's own tables (decision 1104): which recipient moments were told, and each recipient address's one-click
// unsubscribe token and opt-out.
import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export type RecipientMoment = 'on_its_way' | 'delivered' | 'failed';

/** One row per stop and moment told: the key that makes a moment notify once, however many workers look. */
export const recipientNotifications = pgTable(
  'recipient_notifications',
  {
    tenantId: uuid('tenant_id').notNull(),
    stopId: uuid('stop_id').notNull(),
    moment: text('moment').$type<RecipientMoment>().notNull(),
    bookingId: uuid('booking_id').notNull(),
    /** The address mailed, or null when none was (no address, opted out, no master key for a link). */
    email: text('email'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.stopId, t.moment] }), index('recipient_notifications_booking_idx').on(t.tenantId, t.bookingId)],
);

/** A recipient address of a tenant: the hash of its unsubscribe token and, once it used it, when it opted out. */
export const recipientAddresses = pgTable(
  'recipient_addresses',
  {
    tenantId: uuid('tenant_id').notNull(),
    /** Lower-cased. */
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    unsubscribedAt: ts('unsubscribed_at'),
    createdAt: ts('created_at').notNull(),
  },
  // The unsubscribe request knows no tenant before the token (as tracking links, decision 1100).
  (t) => [primaryKey({ columns: [t.tenantId, t.email] }), uniqueIndex('recipient_addresses_token_hash_key').on(t.tokenHash)],
);
