// Whether an address may be handed to SMTP (decision 1622): one plain `local@domain` mailbox, nothing a mail header
// would read as more (a comma, angle brackets, a line break), so no message is written or sent without a recipient.

/**
 * RFC 5322 dot-atom local part in ASCII (no quoted strings; a non-ASCII local part needs SMTPUTF8, which a receiving
 * server may lack); domain labels of letters (any script: the mailer writes them as punycode), digits and hyphens.
 */
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;

export type AddressProblem = 'no_address' | 'invalid_address';

/** Null when `address` is one sendable mailbox, else why not. */
export function addressProblem(address: string | null | undefined): AddressProblem | null {
  const value = address?.trim() ?? '';
  if (!value) return 'no_address';
  if (value.length > 254) return 'invalid_address';
  const at = value.lastIndexOf('@');
  if (at <= 0 || value.indexOf('@') !== at) return 'invalid_address';
  const local = value.slice(0, at);
  const labels = value.slice(at + 1).split('.');
  if (local.length > 64 || !LOCAL.test(local)) return 'invalid_address';
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || !/^\p{L}{2,}$/u.test(labels.at(-1)!)) return 'invalid_address';
  return null;
}

export const isSendableAddress = (address: string | null | undefined): address is string => addressProblem(address) === null;
