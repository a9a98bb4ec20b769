// Bulk booking wire schemas: up to 100 creates in one call, each with its own idempotency key, and their results
// (docs/api-guide.md "Creating bookings in bulk", decision 0320). The booking itself is schemas.ts's BookingCreate.
import { component, documentedAs, withExample } from '../../../http/openapi-components.ts';
import { EXAMPLE_ID as ID } from '../../../http/openapi-examples.ts';
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../http/schemas.ts';
import { Booking, type BookingCreateInput } from './schemas.ts';

/** Items per bulk create: a chunk of a CSV import (api-guide "Creating bookings in bulk"). */
export const BULK_MAX_ITEMS = 100;

const BulkBookingItem = Type.Object(
  {
    idempotency_key: Type.String({ minLength: 1, maxLength: 255, description: 'The `Idempotency-Key` this item is created with, as if sent alone.' }),
    // Checked item by item against createBooking's body, so that one bad item answers its own 422 (decision 0320).
    booking: documentedAs<BookingCreateInput>('BookingCreate', 'Exactly the `booking` of the body of `createBooking`; validated per item.'),
  },
  { additionalProperties: false },
);
export const BulkBookingCreateBody = withExample(
  Type.Object(
    {
      bookings: Type.Array(BulkBookingItem, { minItems: 1, maxItems: BULK_MAX_ITEMS }),
      dry_run: Type.Optional(Type.Boolean({ default: false, description: 'Check every item as the create would, writing nothing.' })),
    },
    { additionalProperties: false },
  ),
  {
    dry_run: false,
    bookings: [
      {
        idempotency_key: 'import-7f3a-row-1',
        booking: { service_id: ID.service, external_id: 'CSV-1', stops: [{ type: 'pickup', place_id: ID.pickupPlace }, { type: 'dropoff', place_id: ID.dropoffPlace }] },
      },
    ],
  },
);
export type BulkBookingCreateInput = Static<typeof BulkBookingCreateBody>;

const BulkFieldError = Type.Object({
  pointer: Type.String({ description: 'As `createBooking` answers it: into the item (`/booking/stops/0/place_id`).' }),
  full_pointer: Type.String({ description: 'Into the bulk body (`/bookings/3/booking/stops/0/place_id`).' }),
  code: Type.String(),
  detail: Type.String(),
});
const BulkItemProblem = component(
  'BulkItemProblem',
  Type.Object(
    {
      type: Type.String({ format: 'uri' }),
      title: Type.String(),
      status: Type.Integer({ minimum: 400, maximum: 599 }),
      detail: Type.String(),
      error_code: Type.String(),
      errors: Type.Optional(Type.Array(BulkFieldError)),
    },
    { additionalProperties: true, description: 'The problem `createBooking` answers for this item, each field error with its `full_pointer` too.' },
  ),
);
export const BulkBookingResult = component(
  'BulkBookingResult',
  withExample(
    Type.Object({
      index: Type.Integer({ minimum: 0, description: 'The item’s position in `bookings`.' }),
      status: Type.Integer({ description: '`createBooking`’s status for this item: 201, or 4xx with `error`.' }),
      replayed: Type.Boolean({ description: 'Answered from the idempotency store: the key was used before with the same booking.' }),
      booking: Nullable(Booking),
      error: Nullable(BulkItemProblem),
    }),
    {
      index: 1,
      status: 422,
      replayed: false,
      booking: null,
      error: {
        type: 'https://tourbook.dev/errors/validation_failed',
        title: 'Validation failed',
        status: 422,
        detail: 'The request body is not valid.',
        error_code: 'validation_failed',
        errors: [{ pointer: '/booking/stops/0/place_id', full_pointer: '/bookings/1/booking/stops/0/place_id', code: 'unknown_reference', detail: 'No place with this id is visible to you.' }],
      },
    },
  ),
);
export type BulkBookingResultOutput = Static<typeof BulkBookingResult>;
export const BulkBookingResults = Type.Object({ results: Type.Array(BulkBookingResult) });
