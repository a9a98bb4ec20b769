// The API's closed lists that several pages show in a fixed order, defined once here and typed by the OpenAPI
// client: a value the API adds or drops fails `tsc -p web` until the list follows.
import type { Schemas } from '../../clients/typescript/src/index.ts';

type FailureOutcome = Schemas['FailureOutcome'];

/** The failure outcomes (API guide, "Failed stops"), in the order the fail-stop dialogs and the services page list them. */
export const FAILURE_OUTCOMES = ['skip_recovery', 'reattempt_later', 'reattempt_now', 'return_later', 'return_now'] as const satisfies readonly FailureOutcome[];

// Every outcome the API knows is listed (the `satisfies` above refuses one it does not know): this fails to compile
// while one is missing.
const _everyOutcomeListed: [Exclude<FailureOutcome, (typeof FAILURE_OUTCOMES)[number]>] extends [never] ? true : never = true;
