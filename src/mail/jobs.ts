// The mail.send job: hands a queued message to the mailer; failures retry with the jobs' backoff.
import type { JobHandler } from '../worker/registry.ts';
import { mailerFor } from './mailer.ts';

export const sendMailJob: JobHandler = async (deps, job) => {
  const { to, subject, text, headers } = job.payload as { to: string[]; subject: string; text: string; headers?: Record<string, string> };
  await mailerFor(deps.config, deps.log).send({ id: job.jobId, to, subject, text, ...(headers ? { headers } : {}) });
};
