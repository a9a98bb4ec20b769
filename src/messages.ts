// Every message catalog of Tourbook, named here: the generic layers' and each module's texts in English and German,
// installed at start-up by createRuntime and buildApp (decision 0210), with the HTTP layer's field-detail table
// (src/http/field-details.ts, decision 0156). No file registers its texts by being imported; src/messages.test.ts
// checks that every message key the code uses has both texts here, src/http/field-details.test.ts every field detail.
import { messages as compat } from './compat/http.ts';
import { messages as errors } from './http/errors.ts';
import { messages as etags } from './http/etag.ts';
import { fieldDetails } from './http/field-details.ts';
import { useFieldDetails, useMessages, type Messages } from './http/i18n.ts';
import { messages as idempotency } from './http/idempotency.ts';
import { messages as rateLimits } from './http/rate-limit.ts';
import { messages as sessions } from './http/session-cookie.ts';
import { messages as compensation } from './modules/compensation/index.ts';
import { messages as dispatch } from './modules/dispatch/index.ts';
import { messages as failures } from './modules/failures/index.ts';
import { messages as identity } from './modules/identity/index.ts';
import { messages as live } from './modules/live/index.ts';
import { messages as places } from './modules/places/index.ts';
import { messages as shifts } from './modules/shifts/index.ts';
import { messages as tracking } from './modules/tracking/index.ts';
import { messages as webhooks } from './modules/webhooks/index.ts';

export const MESSAGE_CATALOGS: readonly Messages[] = [
  errors,
  etags,
  idempotency,
  rateLimits,
  sessions,
  compat,
  ...identity,
  ...dispatch,
  ...failures,
  ...compensation,
  ...live,
  places,
  ...shifts,
  ...tracking,
  ...webhooks,
];

/** The start-up step: from now on every `t()` of this process reads these catalogs, every `translate()` the field
 * details. */
export function useTourbookMessages(): void {
  useMessages(MESSAGE_CATALOGS);
  useFieldDetails(fieldDetails);
}
