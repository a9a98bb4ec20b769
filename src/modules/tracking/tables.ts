// Tracking's own tables (decisions 1104, 1108, 1109): which recipient moments were told, each recipient address's one-click
// unsubscribe token and opt-out, and a tenant's own texts for the recipient's messages.
import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** The moments a drop-off's recipient may be told, in the order they happen (docs/tracking.md; decision 1108). */
export const RECIPIENT_MOMENTS = ['dispatched', 'on_its_way', 'approaching', 'delivered', 'failed'] as const;
export type RecipientMoment = (typeof RECIPIENT_MOMENTS)[number];
/** The languages a recipient's message is written in. */
export const RECIPIENT_LOCALES = ['en', 'de'] as const;
export type RecipientLocale = (typeof RECIPIENT_LOCALES)[number];

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

/**
 * A tenant's own subject and body for one moment in one language (decision 1109); without a row the default text of
 * recipient-mail.ts applies. The unsubscribe footer is never part of it.
 */
export const recipientTemplates = pgTable(
  'recipient_templates',
  {
    tenantId: uuid('tenant_id').notNull(),
    moment: text('moment').$type<RecipientMoment>().notNull(),
    locale: text('locale').$type<RecipientLocale>().notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.moment, t.locale] })],
);
