// A tenant's sender identity (docs/tracking.md "Sender", decision 1784): the name, colour and logo its recipients see on
// the tracking page and in e-mails, the e-mails' From and Reply-To, the SMS sender id. Unset fields fall back to the
// tenant's name, MAIL_FROM's address and SMS_FROM.
import { createHash } from 'node:crypto';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { invalidFields, notFound } from '../../http/errors.ts';
import { isoOrNull } from '../../shared/time.ts';
import { decodeImage } from '../../shared/image-type.ts';
import { findTrackedBooking } from '../dispatch/index.ts';
import { findTenant } from '../identity/index.ts';
import { trackingPermissions } from './permissions.ts';
import * as repo from './sender-repository.ts';
import type { SenderInput } from './sender-schemas.ts';

/** A logo is shown at most 64 px high: 256 KiB is plenty for that, and it is read with every tracking page. */
export const MAX_LOGO_BYTES = 256 * 1024;

/** What a message is sent as: the From (name and address) and Reply-To of e-mails, the SMS sender. */
export interface SendingIdentity {
  mailFrom: { name: string; address: string };
  replyTo: string | null;
  smsFrom: string | null;
}

/** The address of MAIL_FROM (`Name <address>` or a bare address). */
const mailFromAddress = (mailFrom: string): string => /<([^>]+)>\s*$/.exec(mailFrom)?.[1]?.trim() ?? mailFrom.trim();

const domainOf = (address: string): string => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/** The domains a tenant's From may be in: MAIL_SENDER_DOMAINS, else MAIL_FROM's own. */
const allowedDomains = (config: Deps['config']): string[] => (config.mailSenderDomains.length ? config.mailSenderDomains : [domainOf(mailFromAddress(config.mailFrom))]);

function identityOf(config: Deps['config'], tenantName: string, row: repo.SenderSummary | null): SendingIdentity {
  return {
    mailFrom: { name: row?.name ?? tenantName, address: row?.emailFrom ?? mailFromAddress(config.mailFrom) },
    replyTo: row?.replyTo ?? null,
    smsFrom: row?.smsSenderId ?? config.sms?.from ?? null,
  };
}

const logoPath = (sha256: string) => `/api/admin/sender/logo?v=${sha256.slice(0, 12)}`;

function toView(config: Deps['config'], tenantName: string, row: repo.SenderSummary | null) {
  const effective = identityOf(config, tenantName, row);
  return {
    name: row?.name ?? null,
    color: row?.color ?? null,
    reply_to: row?.replyTo ?? null,
    email_from: row?.emailFrom ?? null,
    sms_sender_id: row?.smsSenderId ?? null,
    logo_url: row?.logoSha256 ? logoPath(row.logoSha256) : null,
    effective: { name: effective.mailFrom.name, email_from: `${JSON.stringify(effective.mailFrom.name)} <${effective.mailFrom.address}>`, sms_from: effective.smsFrom },
    updated_at: isoOrNull(row?.updatedAt ?? null),
  };
}
export type SenderView = ReturnType<typeof toView>;

async function tenantNameOf(deps: Deps, tenantId: string): Promise<string> {
  const tenant = await findTenant(deps.db, tenantId);
  if (!tenant) throw notFound('tenant');
  return tenant.name;
}

async function viewOf(deps: Deps, tenantId: string): Promise<SenderView> {
  const [name, row] = await Promise.all([tenantNameOf(deps, tenantId), repo.findSender(deps.db, tenantId)]);
  return toView(deps.config, name, row);
}

export async function getSender(deps: Deps, actor: Actor): Promise<SenderView> {
  trackingPermissions.require(actor, 'read_sender');
  return viewOf(deps, actor.tenantId);
}

/**
 * PATCH semantics: the fields given change, null clears one. A From address must be in a domain the SMTP server may
 * send for (MAIL_SENDER_DOMAINS): anything else would be refused by receiving servers or land in spam (decision 1784).
 */
export async function updateSender(deps: Deps, actor: Actor, input: SenderInput): Promise<SenderView> {
  trackingPermissions.require(actor, 'manage_sender');
  if (input.email_from) {
    const allowed = allowedDomains(deps.config);
    if (!allowed.includes(domainOf(input.email_from))) {
      throw invalidFields([{ pointer: '/sender/email_from', code: 'sender_domain_not_allowed', detail: `The mail server sends only for ${allowed.join(', ')}: use an address there.` }]);
    }
  }
  const patch: Partial<repo.SenderFields> = {
    ...(input.name !== undefined ? { name: input.name?.trim() ?? null } : {}),
    ...(input.color !== undefined ? { color: input.color?.toLowerCase() ?? null } : {}),
    ...(input.reply_to !== undefined ? { replyTo: input.reply_to } : {}),
    ...(input.email_from !== undefined ? { emailFrom: input.email_from?.toLowerCase() ?? null } : {}),
    ...(input.sms_sender_id !== undefined ? { smsSenderId: input.sms_sender_id } : {}),
  };
  if (Object.keys(patch).length) await repo.upsertSender(deps.db, actor.tenantId, patch, deps.clock.now());
  return viewOf(deps, actor.tenantId);
}

/** The logo, as base64: a JPEG, PNG or WebP by its bytes, at most 256 KiB (422 with the pointer otherwise). */
export async function putSenderLogo(deps: Deps, actor: Actor, base64: string): Promise<SenderView> {
  trackingPermissions.require(actor, 'manage_sender');
  const image = decodeImage(base64, MAX_LOGO_BYTES, '256 KiB');
  if (!image.ok) throw invalidFields([{ pointer: '/logo/image', code: image.code, detail: `The logo ${image.detail}.` }]);
  const sha256 = createHash('sha256').update(image.bytes).digest('hex');
  await repo.upsertSender(deps.db, actor.tenantId, { logo: image.bytes, logoType: image.contentType, logoSha256: sha256 }, deps.clock.now());
  return viewOf(deps, actor.tenantId);
}

export async function deleteSenderLogo(deps: Deps, actor: Actor): Promise<SenderView> {
  trackingPermissions.require(actor, 'manage_sender');
  await repo.upsertSender(deps.db, actor.tenantId, { logo: null, logoType: null, logoSha256: null }, deps.clock.now());
  return viewOf(deps, actor.tenantId);
}

export async function readSenderLogo(deps: Deps, actor: Actor) {
  trackingPermissions.require(actor, 'read_sender');
  const logo = await repo.findSenderLogo(deps.db, actor.tenantId);
  if (!logo) throw notFound('logo');
  return logo;
}

/** The logo of the tenant behind a tracking token: 404 for an unknown token, an expired link or no logo alike. */
export async function readTrackingLogo(deps: Deps, token: string) {
  const tracked = await findTrackedBooking(deps, token);
  const logo = tracked && tracked !== 'expired' ? await repo.findSenderLogo(deps.db, tracked.tenantId) : null;
  if (!logo) throw notFound('logo');
  return logo;
}

/** What the send job sends a tenant's message as (one read per message: a change applies to the next one). */
export async function sendingIdentity(deps: Deps, tenantId: string): Promise<SendingIdentity> {
  const [name, row] = await Promise.all([tenantNameOf(deps, tenantId), repo.findSender(deps.db, tenantId)]);
  return identityOf(deps.config, name, row);
}
