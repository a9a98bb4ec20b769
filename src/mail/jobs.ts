// The mail.send job: hands a queued message to the mailer; failures retry with the jobs' backoff.
import type { JobHandler } from '../worker/registry.ts';
import { isSendableAddress } from './address.ts';
import { mailerFor } from './mailer.ts';

export const sendMailJob: JobHandler = async (deps, job) => {
  const { to: queued, subject, text, headers } = job.payload as { to: string[]; subject: string; text: string; headers?: Record<string, string> };
  // Checked again at the door (decision 1622): a job queued before the check, or written by hand, sends to no one.
  const to = (Array.isArray(queued) ? queued : []).filter(isSendableAddress);
  if (!to.length) {
    deps.log.warn({ job_id: job.jobId, reason: 'no valid recipient' }, 'mail not sent: no valid recipient');
    return;
  }
  await mailerFor(deps.config, deps.log).send({ id: job.jobId, to, subject, text, ...(headers ? { headers } : {}) });
};
