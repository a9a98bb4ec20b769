// Identity tables: tenants, users, organizations and their members, service areas, credentials.
import { index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid, integer, boolean } from 'drizzle-orm/pg-core';
import { DEFAULT_AVERAGE_SPEED_KMH } from './rules.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A moment a service area's recipients are e-mailed at (decisions 1104, 1108). */
export type RecipientMomentSetting = 'dispatched' | 'on_its_way' | 'approaching' | 'delivered' | 'failed';

export const tenants = pgTable('tenants', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  extensions: text('extensions').array().notNull().default([]),
  settings: jsonb('settings').$type<{ enforce_sunsets: boolean }>().notNull().default({ enforce_sunsets: false }),
  createdAt: ts('created_at').notNull(),
});

export const users = pgTable(
  'users',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    role: text('role').$type<'admin' | 'manager' | 'driver' | 'customer'>().notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phoneNumber: text('phone_number'),
    passwordHash: text('password_hash'),
    /** The driver's en_route tour, kept by the tours module in the same transaction as the transition. */
    activeTourId: uuid('active_tour_id'),
    deactivatedAt: ts('deactivated_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('users_email_key').on(t.tenantId, t.email),
    // Sign-in looks an e-mail up before the tenant is known (decision 0201): like credential tokens, a global index.
    index('users_sign_in_email_idx').on(t.email),
    index('users_role_idx').on(t.tenantId, t.role, t.id),
  ],
);

export const organizations = pgTable(
  'organizations',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    name: text('name').notNull(),
    serviceAreaIds: uuid('service_area_ids').array().notNull().default([]),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);

export const organizationMembers = pgTable(
  'organization_members',
  {
    tenantId: uuid('tenant_id').notNull(),
    organizationId: uuid('organization_id').notNull(),
    userId: uuid('user_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.organizationId, t.userId] }),
    index('organization_members_user_idx').on(t.tenantId, t.userId),
  ],
);

export const serviceAreas = pgTable(
  'service_areas',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    name: text('name').notNull(),
    currency: text('currency').notNull(),
    timeZone: text('time_zone').notNull(),
    boundary: jsonb('boundary'),
    schedulingConfigId: uuid('scheduling_config_id'),
    averageSpeedKmh: integer('average_speed_kmh').notNull().default(DEFAULT_AVERAGE_SPEED_KMH),
    createdAt: ts('created_at').notNull(),
    /** Auto-dispatch of new bookings into open tours (decision 1350): off unless enabled, bounded by the budget. */
    autoDispatchEnabled: boolean('auto_dispatch_enabled').notNull().default(false),
    autoDispatchBudgetMs: integer('auto_dispatch_budget_ms').notNull().default(200),
    /** Which moments e-mail the recipients of the area's bookings (decision 1104); none by default. */
    recipientNotifications: text('recipient_notifications').array().$type<RecipientMomentSetting[]>().notNull().default([]),
    /** `approaching`: the drop-off's ETA is at most this many minutes away (decision 1108). */
    recipientApproachingMinutes: integer('recipient_approaching_minutes').notNull().default(10),
    /** ISO 3166-1 alpha-2: the country phone numbers written without "+" are read in (contract §14); null: none. */
    countryCode: text('country_code'),
    /** SMS quiet hours on the area's clock (decision 1772): an SMS due inside them waits until `to`; null: none. */
    smsQuietHours: jsonb('sms_quiet_hours').$type<{ from: string; to: string }>(),
    /** How many days later a recipient may move its delivery through the tracking link (decision 1788); 0: not at all. */
    recipientRescheduleDays: integer('recipient_reschedule_days').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);

/** API keys, access and refresh tokens, browser sessions (decision 0140); only the SHA-256 of a token is stored. */
export const credentials = pgTable(
  'credentials',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    userId: uuid('user_id').notNull(),
    kind: text('kind').$type<'api_key' | 'access' | 'refresh' | 'session'>().notNull(),
    name: text('name'),
    tokenHash: text('token_hash').notNull(),
    tokenPrefix: text('token_prefix').notNull(),
    expiresAt: ts('expires_at'),
    revokedAt: ts('revoked_at'),
    /** Access and refresh tokens descending from one sign-in share it: a refresh-token reuse revokes the family. A
     * browser session is a family of its own, so signing out ends it the same way. */
    familyId: uuid('family_id'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // Authentication looks a token up before the tenant is known: the one global index.
    uniqueIndex('credentials_token_hash_key').on(t.tokenHash),
    index('credentials_user_idx').on(t.tenantId, t.userId),
  ],
);

/** One-time sign-in links (decision 1602): an invitation by e-mail, or the bootstrap admin's first sign-in. */
export const signInLinks = pgTable(
  'sign_in_links',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    userId: uuid('user_id').notNull(),
    purpose: text('purpose').$type<'invitation' | 'bootstrap'>().notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // Accepting looks a token up before the tenant is known, like credential tokens: a global index.
    uniqueIndex('sign_in_links_token_hash_key').on(t.tokenHash),
    index('sign_in_links_user_idx').on(t.tenantId, t.userId),
  ],
);
