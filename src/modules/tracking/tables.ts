// Tracking's own tables (decisions 1104, 1108, 1109, 1761, 1784): which recipient moments were told, each recipient address's
// one-click unsubscribe token and opt-out, a tenant's own texts and sender identity, each message sent and the opted-out numbers.
import { sql } from 'drizzle-orm';
import { customType, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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

/** The channels a recipient is told through (contract §18). */
export const MESSAGE_CHANNELS = ['email', 'sms'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];
/** A message's delivery state; `delivered` and `failed` are final (decision 1762). */
export const MESSAGE_STATUSES = ['queued', 'sent', 'delivered', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * One e-mail or SMS to a drop-off's recipient and its delivery state (contract §18, decision 1761): written when the
 * moment is told, moved on by the send job and by the gateway's receipts. `sending_until`: a send job holds it
 * while it talks to the gateway, so a second job for it sends nothing (decision 1763).
 */
export const recipientMessages = pgTable(
  'recipient_messages',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    bookingId: uuid('booking_id').notNull(),
    stopId: uuid('stop_id').notNull(),
    channel: text('channel').$type<MessageChannel>().notNull(),
    /** The address or the E.164 number (as given, when it was not one). */
    to: text('to').notNull(),
    moment: text('moment').$type<RecipientMoment>().notNull(),
    status: text('status').$type<MessageStatus>().notNull(),
    /** Why it failed, in words (the gateway's answer, or ours). */
    error: text('error'),
    /** The gateway's own id of the message, where it gives one. */
    providerRef: text('provider_ref'),
    sendingUntil: ts('sending_until'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('recipient_messages_booking_idx').on(t.tenantId, t.bookingId, t.createdAt),
    index('recipient_messages_sms_to_idx').on(t.to, t.createdAt).where(sql`"channel" = 'sms'`),
    // Retention's oldest messages first, across tenants (decision 1773).
    index('recipient_messages_created_idx').on(t.createdAt, t.tenantId, t.bookingId),
    // A receipt finds its message by the gateway's id (decisions 1782, 1783; migration 0031).
    index('recipient_messages_provider_ref_idx').on(t.providerRef).where(sql`"provider_ref" IS NOT NULL`),
  ],
);

/** A number that replied a stop word to a tenant's SMS: it gets no more SMS from that tenant (decision 1764). */
export const recipientPhones = pgTable(
  'recipient_phones',
  {
    tenantId: uuid('tenant_id').notNull(),
    phoneNumber: text('phone_number').notNull(),
    optedOutAt: ts('opted_out_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.phoneNumber] })],
);

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * A tenant's sender identity towards its recipients (decision 1784): what the tracking page, the e-mails and the SMS
 * say they come from. Every field null means Tourbook's default for it (the tenant's name, MAIL_FROM, SMS_FROM). The
 * logo is a small raster image kept here, not in the blob store: it is public, a few kilobytes, and read with the
 * tracking page.
 */
export const recipientSenders = pgTable('recipient_senders', {
  tenantId: uuid('tenant_id').primaryKey(),
  name: text('name'),
  color: text('color'),
  replyTo: text('reply_to'),
  emailFrom: text('email_from'),
  smsSenderId: text('sms_sender_id'),
  logo: bytea('logo'),
  logoType: text('logo_type'),
  logoSha256: text('logo_sha256'),
  updatedAt: ts('updated_at').notNull(),
});
