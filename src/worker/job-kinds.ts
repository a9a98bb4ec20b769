// Every job kind Tourbook schedules: a closed list. scheduleJob accepts only these, and worker/handlers.ts must
// give each one a handler (a Record over this list), so a missing handler fails the type check and the start-up.
export const JOB_KINDS = ['mail.send', 'tours.expire_claim', 'busyness.tick', 'idempotency.purge', 'event.debounced', 'live.recompute_etas', 'live.position_retention', 'compensation.distribute_tips', 'reports.expire', 'dispatch.plan', 'bookings.auto_dispatch', 'dispatch.proof_retention', 'tracking.notify_recipients', 'tracking.send_message', 'tracking.recipient_retention'] as const;

export type JobKind = (typeof JOB_KINDS)[number];
