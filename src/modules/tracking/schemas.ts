// The public tracking read's wire shape (docs/tracking.md): exactly what a recipient needs, nothing else; and the
// admin's recipient templates.
import { Type, type Static } from '@sinclair/typebox';
import { component, StringEnum, withExample } from '../../http/openapi-components.ts';
import { EXAMPLE_AT } from '../../http/openapi-examples.ts';
import { ListOf, Nullable, Timestamp } from '../../http/schemas.ts';
import { TEMPLATE_LIMITS } from './recipient-mail.ts';
import { MESSAGE_CHANNELS, MESSAGE_STATUSES, RECIPIENT_LOCALES, RECIPIENT_MOMENTS } from './tables.ts';

const TimeWindow = Nullable(Type.Object({ starts_at: Timestamp, ends_at: Timestamp }));

const TrackedStop = Type.Object({
  kind: Type.Union([Type.Literal('pickup'), Type.Literal('dropoff')]),
  status: Type.String(),
  time_window: TimeWindow,
  eta: Nullable(Timestamp),
  eta_window: Nullable(Type.Object({ earliest: Timestamp, latest: Timestamp })),
  completed_at: Nullable(Timestamp),
  failure: Nullable(Type.Object({ reason: Type.String() })),
  next_attempt: Nullable(Type.Object({ time_window: TimeWindow })),
  proof: Nullable(Type.Object({ recipient_name: Nullable(Type.String()), photo_url: Nullable(Type.String()) })),
  /** The recipient's own stop only (contract §18): where it delivers to, and its day on the service area's clock. */
  address: Type.Optional(Type.Object({ street: Type.String(), number: Nullable(Type.String()), zip_code: Nullable(Type.String()), city: Type.String() })),
  date: Type.Optional(Nullable(Type.String({ format: 'date' }))),
});

export const Tracking = component('Tracking', withExample(Type.Object({
  booking_status: Type.String(),
  /** Who sends: the tenant's sender name (else its name) and logo (decision 1784). */
  sender: Type.Object({ name: Type.String(), logo_url: Nullable(Type.String()) }),
  stops: Type.Array(TrackedStop),
  driver: Nullable(Type.Object({
    first_name: Type.String(),
    position: Nullable(Type.Object({ lat: Type.Number(), lng: Type.Number(), recorded_at: Timestamp })),
  })),
  stops_before_yours: Nullable(Type.Integer({ minimum: 0 })),
  feedback: Nullable(Type.Object({ rating: Type.Integer({ minimum: 1, maximum: 5 }), comment: Nullable(Type.String()) })),
}), {
  booking_status: 'dispatched',
  sender: { name: 'Spree Kurier', logo_url: 'https://tourbook.example.com/api/tracking/Jq4vT0pXo2s8cA1bE7mW9zKdR5uYfH3n/logo?v=3f2a9c1d' },
  stops: [
    {
      kind: 'pickup',
      status: 'completed',
      time_window: { starts_at: '2026-11-22T13:00:00.000Z', ends_at: '2026-11-22T15:00:00.000Z' },
      eta: null,
      eta_window: null,
      completed_at: '2026-11-22T13:12:00.000Z',
      failure: null,
      next_attempt: null,
      proof: null,
    },
    {
      kind: 'dropoff',
      status: 'approaching',
      time_window: { starts_at: '2026-11-22T14:00:00.000Z', ends_at: '2026-11-22T16:00:00.000Z' },
      eta: '2026-11-22T14:20:00.000Z',
      eta_window: { earliest: '2026-11-22T14:15:00.000Z', latest: '2026-11-22T14:25:00.000Z' },
      completed_at: null,
      failure: null,
      next_attempt: null,
      proof: null,
      address: { street: 'Torstraße', number: '2', zip_code: '10119', city: 'Berlin' },
      date: '2026-11-22',
    },
  ],
  driver: { first_name: 'Carla', position: { lat: 52.5301, lng: 13.4071, recorded_at: '2026-11-22T14:08:30.000Z' } },
  stops_before_yours: null,
  feedback: null,
}));

export const TrackingEnvelope = Type.Object({ tracking: Tracking });

/** The token is opaque; anything longer than a token could be is refused by the schema (404-free 400 is not wanted). */
export const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

export const FeedbackBody = withExample(
  Type.Object(
    {
      feedback: Type.Object(
        { rating: Type.Integer({ minimum: 1, maximum: 5 }), comment: Type.Optional(Type.String({ maxLength: 2000 })) },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
  { feedback: { rating: 5, comment: 'Left with the neighbour, as asked — thank you!' } },
);

/** A tracked stop by its index in the tracking object's `stops` (decision 1250). */
/**
 * The index as the tracking read writes it, the canonical decimal integer 0–999 alone: a string with a pattern, not an
 * integer, because Ajv's coercion reads `1.0`, `01` or `1e0` as 1 and one photo would answer at many addresses. Any
 * other spelling names no stop: 404 like a malformed id (decisions 0151, 1623).
 */
export const ProofPhotoParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }), index: Type.String({ pattern: '^(0|[1-9][0-9]{0,2})$' }) });

// ── Recipient templates (docs/tracking.md "Templates", decision 1109) ───────────────────────────────────────────────

const MOMENT_DESCRIPTION = 'dispatched, on_its_way, approaching, delivered or failed';

/** A moment and a language: unknown ones answer 404 (decision 0151), as any malformed id does. */
export const TemplateParams = Type.Object({
  moment: Type.String({ maxLength: 40, description: MOMENT_DESCRIPTION }),
  locale: Type.String({ maxLength: 10, description: 'en or de' }),
});

export const RecipientTemplate = component('RecipientTemplate', withExample(Type.Object({
  moment: StringEnum(RECIPIENT_MOMENTS),
  locale: StringEnum(RECIPIENT_LOCALES),
  subject: Type.String(),
  body: Type.String({ description: 'Placeholders in double braces; the unsubscribe footer is appended by Tourbook.' }),
  placeholders: Type.Array(Type.String(), { description: 'The placeholders this moment offers.' }),
  customized: Type.Boolean({ description: "The tenant's own text (false: Tourbook's default)." }),
  updated_at: Nullable(Timestamp),
}), {
  moment: 'approaching',
  locale: 'de',
  subject: 'Gleich bei Ihnen: Ihre Lieferung',
  body: 'Hallo {{name}},\n\nIhre Lieferung ist in wenigen Minuten da.\nVoraussichtlich gegen {{eta}}.\n\nLive verfolgen: {{tracking_url}}',
  placeholders: ['name', 'tracking_url', 'eta', 'window'],
  customized: true,
  updated_at: EXAMPLE_AT,
}));

export const RecipientTemplateEnvelope = Type.Object({ recipient_template: RecipientTemplate });
export const RecipientTemplateList = ListOf('recipient_templates', RecipientTemplate);

const TemplateFields = Type.Object(
  {
    subject: Type.String({ minLength: 1, maxLength: TEMPLATE_LIMITS.subject }),
    body: Type.String({ minLength: 1, maxLength: TEMPLATE_LIMITS.body }),
  },
  { additionalProperties: false },
);

export const TemplateBody = withExample(Type.Object({ recipient_template: TemplateFields }, { additionalProperties: false }), {
  recipient_template: {
    subject: 'Gleich bei Ihnen: Ihre Lieferung',
    body: 'Hallo {{name}},\n\nIhre Lieferung ist in wenigen Minuten da.\nVoraussichtlich gegen {{eta}}.\n\nLive verfolgen: {{tracking_url}}',
  },
});
export type TemplateInput = Static<typeof TemplateFields>;

/** A draft to render instead of the saved template; without one, the saved (or default) template is rendered. */
export const PreviewBody = withExample(Type.Object({ recipient_template: Type.Optional(TemplateFields) }, { additionalProperties: false }), {
  recipient_template: { subject: 'Ihre Lieferung ist unterwegs', body: 'Hallo {{name}}, gleich da: {{eta}}. {{tracking_url}}' },
});

export const PreviewEnvelope = withExample(
  Type.Object({
    preview: Type.Object({
      subject: Type.String(),
      text: Type.String({ description: 'The message as `booking.recipient_notification_due` carries it.' }),
      email_text: Type.String({ description: 'The e-mail: the message and the unsubscribe footer Tourbook appends.' }),
      sms: Type.Object(
        {
          text: Type.String(),
          coding: StringEnum(['gsm7', 'ucs2'] as const),
          segments: Type.Integer({ minimum: 1 }),
        },
        { description: 'The SMS the template makes (one line, the STOP hint appended) and what it costs: GSM-7 (160 characters a segment, 153 when split) or UCS-2 (70, 67).' },
      ),
    }),
  }),
  {
    preview: {
      subject: 'Ihre Lieferung ist unterwegs',
      text: 'Hallo Erika Mustermann, gleich da: Do., 13:13 UTC. https://tourbook.example/track/sample',
      email_text:
        'Hallo Erika Mustermann, gleich da: Do., 13:13 UTC. https://tourbook.example/track/sample\n\n-- \nSie erhalten diese E-Mail, weil eine Lieferung an diese Adresse ging.\nKeine Liefer-E-Mails mehr an diese Adresse: https://tourbook.example/unsubscribe/sample\n',
      sms: {
        text: 'Hallo Erika Mustermann, gleich da: Do., 13:13 UTC. https://tourbook.example/track/sample Antworten Sie STOPP zum Abmelden.',
        coding: 'gsm7',
        segments: 1,
      },
    },
  },
);

/** One e-mail or SMS told to a booking's recipient, with its delivery state (contract §18, decision 1761). */
export const RecipientMessage = component('RecipientMessage', withExample(Type.Object({
  id: Type.String({ format: 'uuid' }),
  channel: StringEnum(MESSAGE_CHANNELS),
  to: Type.String(),
  moment: StringEnum(RECIPIENT_MOMENTS),
  status: StringEnum(MESSAGE_STATUSES),
  error: Nullable(Type.String()),
  created_at: Timestamp,
}), {
  id: '0b5c2f5e-6d1e-4f3a-9a43-2b8f1f0c7d21',
  channel: 'sms',
  to: '+4915112345678',
  moment: 'on_its_way',
  status: 'delivered',
  error: null,
  created_at: EXAMPLE_AT,
}));
export const RecipientMessageList = Type.Object({ messages: Type.Array(RecipientMessage) });

/** Kannel's receipt (its dlr-url, decision 1762): our secret, the message it is about, its %d type and %A answer. */
export const KannelStatusQuery = Type.Object({
  secret: Type.Optional(Type.String({ maxLength: 200 })),
  tenant: Type.String({ format: 'uuid' }),
  message: Type.String({ format: 'uuid' }),
  type: Type.Integer({ minimum: 0, maximum: 255 }),
  answer: Type.Optional(Type.String({ maxLength: 1000 })),
});
/** Kannel's inbound message (its sms-service get-url or post-url, decision 1764): our secret, the sender's number (%p), the text (%a). */
export const KannelInboundQuery = Type.Object({
  secret: Type.Optional(Type.String({ maxLength: 200 })),
  from: Type.String({ minLength: 1, maxLength: 40 }),
  text: Type.String({ maxLength: 2000 }),
});

/**
 * Twilio's status callback (decision 1782), form-encoded: the message's SID, its state and, when it failed, Twilio's
 * error code. Twilio sends more fields (AccountSid, From, To, ApiVersion, …): they are signed, not read.
 */
export const TwilioStatusBody = withExample(Type.Object(
  {
    MessageSid: Type.String({ minLength: 1, maxLength: 64 }),
    MessageStatus: Type.String({ minLength: 1, maxLength: 40 }),
    ErrorCode: Type.Optional(Type.String({ maxLength: 20 })),
  },
  { additionalProperties: true },
), { MessageSid: 'SM0f9a3c5e7b1d4f6a8c2e0b4d6f8a1c3e', MessageStatus: 'delivered' });
/** An SMS to our Twilio number (its messaging webhook), form-encoded: the sender's number and the text. */
export const TwilioInboundBody = withExample(Type.Object(
  { From: Type.String({ minLength: 1, maxLength: 40 }), Body: Type.String({ maxLength: 2000 }) },
  { additionalProperties: true },
), { From: '+4915112345678', Body: 'STOP' });
/** The SMPP bridge's query: our secret (decision 1783). */
export const SmppCallbackQuery = Type.Object({ secret: Type.Optional(Type.String({ maxLength: 200 })) });
/** An SMSC's delivery receipt as the SMPP session read it: the SMSC's message_id, the `stat:` word, the `err:` code. */
export const SmppStatusBody = withExample(
  Type.Object({
    message_id: Type.String({ minLength: 1, maxLength: 65 }),
    stat: Type.String({ minLength: 1, maxLength: 20 }),
    err: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
  }),
  { message_id: '2f9c41e0', stat: 'DELIVRD', err: '000' },
);
/** A phone's reply as the SMPP session read it (a deliver_sm without receipt bits): the sender's number, the text. */
export const SmppInboundBody = withExample(
  Type.Object({ from: Type.String({ minLength: 1, maxLength: 40 }), text: Type.String({ maxLength: 2000 }) }),
  { from: '+4915112345678', text: 'STOP' },
);
