// Handover wire schemas: the proof of a handover and the bodies of completing a stop and of a package's lookup,
// forced delivery and transitions (docs/api-guide.md "Bookings, stops and tours"); the stop and package are schemas.ts's.
import { withExample } from '../../../http/openapi-components.ts';
import { EXAMPLE_ID as ID } from '../../../http/openapi-examples.ts';
import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from '../../../http/schemas.ts';
import { LookedUpPackage, Package } from './schemas.ts';

/** Routes that take a DeliveryProof (two base64 images of up to 7,000,000 characters) declare this body limit (decision 0111). */
export const PROOF_BODY_LIMIT = 16 * 1024 * 1024;

/** Proof of a handover: of a forced delivery, or of a stop's completion (docs/api-guide.md "Bookings, stops and tours"). */
export const DeliveryProof = Type.Object(
  {
    signature: Type.Optional(Type.String({ minLength: 1, maxLength: 7_000_000 })),
    photo: Type.Optional(Type.String({ minLength: 1, maxLength: 7_000_000, description: 'base64, at most 5 MiB decoded' })),
    recipient_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    note: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  },
  { additionalProperties: false },
);
export type DeliveryProofInput = Static<typeof DeliveryProof>;

export const StopCompleteBody = withExample(Type.Object(
  {
    packages: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: Uuid,
            result: Type.Union([Type.Literal('picked_up'), Type.Literal('delivered'), Type.Literal('failed')]),
            reason_key: Type.Optional(Type.String({ maxLength: 64 })),
            note: Type.Optional(Type.String({ maxLength: 2000 })),
          },
          { additionalProperties: false },
        ),
        { maxItems: 1000 },
      ),
    ),
    proof: Type.Optional(DeliveryProof),
  },
  { additionalProperties: false },
), { packages: [{ id: ID.package, result: 'delivered' }], proof: { recipient_name: 'A. Lovelace', note: 'Handed over at the door' } });
export type StopCompleteInput = Static<typeof StopCompleteBody>;

export const PackageLookupBody = withExample(Type.Union(
  [
    Type.Object({ shortcode: Type.String({ minLength: 1, maxLength: 20 }) }, { additionalProperties: false }),
    Type.Object({ external_label: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
  ],
), { shortcode: 'EPHW4MQK' });
export const PackageEnvelope = Type.Object({ package: Package });
export const LookedUpPackageEnvelope = Type.Object({ package: LookedUpPackage });

export const ForceDeliveryBody = withExample(Type.Object({ proof: Type.Optional(DeliveryProof) }, { additionalProperties: false }), {
  proof: { recipient_name: 'Reception, 2nd floor', note: 'Scanner broken; signed on paper' },
});
export type ForceDeliveryInput = Static<typeof ForceDeliveryBody>;

export const PackageTransitionBody = withExample(Type.Object({ event: Type.String({ minLength: 1, maxLength: 50 }) }, { additionalProperties: false }), { event: 'announce' });
