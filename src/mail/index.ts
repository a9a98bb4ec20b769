// What other modules may use of mail: queue a message in their transaction, and find the tenant's admins.
import type { Tx } from '../db/client.ts';
import type { JobKind } from '../worker/job-kinds.ts';
import { scheduleJob } from '../worker/jobs.ts';
import { isSendableAddress } from './address.ts';

export { addressProblem, isSendableAddress, type AddressProblem } from './address.ts';
export { mailerFor } from './mailer.ts';

export { adminEmails } from '../modules/identity/index.ts';

export const MAIL_JOB: JobKind = 'mail.send';

export interface MailInput {
  tenantId: string;
  to: string[];
  subject: string;
  text: string;
  now: Date;
  /** Extra header lines (a recipient's `List-Unsubscribe`, RFC 8058). */
  headers?: Record<string, string>;
}

/**
 * Queues an e-mail as a `mail.send` job: it leaves only if the caller's transaction commits, and is retried. Only
 * sendable addresses are kept (decision 1622); with none left nothing is queued, and the answer is false.
 */
export async function enqueueMail(tx: Tx, input: MailInput): Promise<boolean> {
  const to = input.to.filter(isSendableAddress);
  if (!to.length) return false;
  await scheduleJob(tx, {
    tenantId: input.tenantId,
    kind: MAIL_JOB,
    payload: { to, subject: input.subject, text: input.text, ...(input.headers ? { headers: input.headers } : {}) },
    dueAt: input.now,
    now: input.now,
    maxAttempts: 8,
  });
  return true;
}
