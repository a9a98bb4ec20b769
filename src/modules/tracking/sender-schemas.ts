// The sender identity's wire shapes (docs/tracking.md "Sender", decision 1784): admins set it, managers read it.
import { Type, type Static } from '@sinclair/typebox';
import { component, withExample } from '../../http/openapi-components.ts';
import { Nullable, Timestamp } from '../../http/schemas.ts';

const Email = Type.String({ format: 'email', maxLength: 320 });
/** As SMS_FROM: a number, or an alphanumeric sender id of at most 11 characters (what carriers accept). */
export const SMS_SENDER_ID_PATTERN = '^([A-Za-z0-9 ._-]{1,11}|\\+?[0-9]{1,15})$';

export const Sender = component('Sender', withExample(Type.Object({
  /** What recipients read as the sender; null: the tenant's name. */
  name: Nullable(Type.String()),
  color: Nullable(Type.String()),
  reply_to: Nullable(Type.String()),
  email_from: Nullable(Type.String()),
  sms_sender_id: Nullable(Type.String()),
  logo_url: Nullable(Type.String()),
  /** What the messages use now, defaults filled in. */
  effective: Type.Object({ name: Type.String(), email_from: Type.String(), sms_from: Nullable(Type.String()) }),
  updated_at: Nullable(Timestamp),
}), {
  name: 'Spree Kurier',
  color: '#0b5fff',
  reply_to: 'kundenservice@spree-kurier.de',
  email_from: 'versand@spree-kurier.de',
  sms_sender_id: 'SpreeKurier',
  logo_url: '/api/admin/sender/logo?v=3f2a9c1d07b4',
  effective: { name: 'Spree Kurier', email_from: '"Spree Kurier" <versand@spree-kurier.de>', sms_from: 'SpreeKurier' },
  updated_at: '2026-11-22T09:00:00.000Z',
}));
export const SenderEnvelope = Type.Object({ sender: Sender });

const SenderFields = Type.Object(
  {
    name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }))),
    color: Type.Optional(Nullable(Type.String({ pattern: '^#[0-9A-Fa-f]{6}$' }))),
    reply_to: Type.Optional(Nullable(Email)),
    email_from: Type.Optional(Nullable(Email)),
    sms_sender_id: Type.Optional(Nullable(Type.String({ pattern: SMS_SENDER_ID_PATTERN }))),
  },
  { additionalProperties: false },
);
export type SenderInput = Static<typeof SenderFields>;

export const SenderBody = withExample(Type.Object({ sender: SenderFields }, { additionalProperties: false }), {
  sender: { name: 'Spree Kurier', color: '#0b5fff', reply_to: 'kundenservice@spree-kurier.de', sms_sender_id: 'SpreeKurier' },
});

export const LogoBody = withExample(
  Type.Object({ logo: Type.Object({ image: Type.String({ minLength: 1, maxLength: 400_000 }) }, { additionalProperties: false }) }, { additionalProperties: false }),
  { logo: { image: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==' } },
);
