// The wire of the recipient's delivery instructions (docs/tracking.md "Instructions", decision 1788).
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
