// The wire of the recipient's options through the tracking link (docs/tracking.md "Instructions", "A later day";
// decision 1788): its instructions for the driver, and a later delivery day.
import { Type } from '@sinclair/typebox';
import { StringEnum, withExample } from '../../http/openapi-components.ts';
import { Nullable } from '../../http/schemas.ts';

const Kind = StringEnum(['none', 'leave_at_door', 'neighbour'] as const, {
  description: '`leave_at_door`: leave it at the door if nobody answers; `neighbour`: hand it to the neighbour named; `none`: no instruction.',
});

export const InstructionsBody = withExample(
  Type.Object(
    {
      instructions: Type.Object(
        {
          kind: Kind,
          neighbour: Type.Optional(Nullable(Type.String({ maxLength: 120, description: 'Who and where; required with `neighbour`, refused otherwise.' }))),
          note: Type.Optional(Nullable(Type.String({ maxLength: 500, description: 'For the driver: a door code, where the door is.' }))),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
  { instructions: { kind: 'neighbour', neighbour: 'Mme Rossi, 2nd floor', note: 'Entrance on the courtyard side' } },
);

export const InstructionsEnvelope = withExample(
  Type.Object({
    instructions: Type.Object({
      kind: Kind,
      neighbour: Nullable(Type.String()),
      note: Nullable(Type.String()),
      updated_at: Nullable(Type.String({ format: 'date-time', description: 'When the recipient gave them; null until then.' })),
      editable: Type.Boolean({ description: "Whether they may still change: some of the recipient's own stops is open." }),
    }),
  }),
  {
    instructions: {
      kind: 'neighbour',
      neighbour: 'Mme Rossi, 2nd floor',
      note: 'Entrance on the courtyard side',
      updated_at: '2026-12-04T08:12:00.000Z',
      editable: true,
    },
  },
);

const Day = Type.String({ format: 'date', description: "YYYY-MM-DD on the service area's clock." });

export const DeliveryDateBody = withExample(
  Type.Object({ delivery_date: Type.Object({ date: Day }, { additionalProperties: false }) }, { additionalProperties: false }),
  { delivery_date: { date: '2026-12-07' } },
);

export const DeliveryDateEnvelope = withExample(
  Type.Object({
    delivery_date: Type.Object({
      date: Nullable(Type.String({ format: 'date', description: "The recipient's stop's day (its time window's); null without a window." })),
      options: Type.Array(Day, { description: 'The later days it may move to, in order; empty when it may not.' }),
      changeable: Type.Boolean(),
      closed_reason: Nullable(
        StringEnum(['not_offered', 'moved', 'under_way', 'no_day'] as const, {
          description: 'Why it may not move: the area offers no days, it moved once already, a stop is under way or done, or it has no day.',
        }),
      ),
      moved_from: Nullable(Type.String({ format: 'date', description: 'The day the recipient moved it from; null until then.' })),
    }),
  }),
  { delivery_date: { date: '2026-12-04', options: ['2026-12-05', '2026-12-06', '2026-12-07'], changeable: true, closed_reason: null, moved_from: null } },
);
