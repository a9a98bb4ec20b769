// The mailer: nodemailer over SMTP_URL, or, with none configured, .eml files under DATA_DIR/mail/ (never dropped).
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { isSendableAddress } from './address.ts';

export interface MailMessage {
  id: string;
  to: string[];
  subject: string;
  text: string;
  headers?: Record<string, string>;
  /** The sender instead of MAIL_FROM (a tenant's identity, decision 1784); nodemailer encodes the name. */
  from?: { name: string; address: string };
  replyTo?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>, log: FastifyBaseLogger): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(message) {
        // The job id as Message-ID lets a receiving server drop a retry's duplicate.
        await transport.sendMail({ ...envelopeOf(config.mailFrom, message), messageId: `<${message.id}@tourbook>` });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const dir = path.join(config.dataDir, 'mail');
  return {
    async send(message) {
      const info = await transport.sendMail({ ...envelopeOf(config.mailFrom, message), messageId: `<${message.id}@tourbook>` });
      await fs.mkdir(dir, { recursive: true });
      const file = path.join(dir, `${message.id}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      log.info({ file, to: message.to, subject: message.subject }, 'mail written (SMTP_URL is not set)');
    },
  };
}

/** Nothing is written or sent without a recipient (decision 1622): the last guard before SMTP or the .eml file. */
function recipientsOf(message: MailMessage): string[] {
  const to = message.to.filter(isSendableAddress);
  if (!to.length || to.length !== message.to.length) throw new Error('mail refused: every recipient must be one valid address');
  return to;
}

const envelopeOf = (from: string, message: MailMessage) => ({
  from: message.from ?? from,
  to: recipientsOf(message),
  subject: message.subject,
  text: message.text,
  ...(message.replyTo ? { replyTo: message.replyTo } : {}),
  ...(message.headers ? { headers: message.headers } : {}),
});

/** One mailer per configuration: transports keep connections open between jobs. */
const mailers = new Map<string, Mailer>();
export function mailerFor(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>, log: FastifyBaseLogger): Mailer {
  const key = `${config.smtpUrl ?? ''}|${config.mailFrom}|${config.dataDir}`;
  let mailer = mailers.get(key);
  if (!mailer) {
    mailer = createMailer(config, log);
    mailers.set(key, mailer);
  }
  return mailer;
}
