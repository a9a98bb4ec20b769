// The domain's closed lists that pure rule files of more than one module read at run time. They live below the
// modules because a rule file imports types only (decision 0216): a list it needs at run time from another module
// can come from nowhere else. Each is defined here once and names its owning module, which re-exports it (services
// through its index.ts, dispatch from booking-status.ts). Nothing here imports anything.

/** The failure outcomes of docs/api-guide.md "Failed stops", in the order they render. Owned by services. */
export const FAILURE_OUTCOMES = ['skip_recovery', 'reattempt_later', 'reattempt_now', 'return_later', 'return_now'] as const;
export type FailureOutcome = (typeof FAILURE_OUTCOMES)[number];

/** Stop statuses that are an outcome: the stop takes no more steps (docs/api-guide.md "Bookings, stops and tours"). Owned by dispatch. */
export const FINAL_STOP_STATUSES = ['completed', 'failed', 'cancelled'] as const;
