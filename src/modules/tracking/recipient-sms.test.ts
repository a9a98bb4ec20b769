import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { checkCallbackSecret } from './messages.ts';
import { gsmFriendly, isStopReply, kannelReceiptStatus, recipientSmsText, STATUS_RANK } from './recipient-sms.ts';

describe('stop replies', () => {
  it.each([
    ['STOP', true],
    ['stop', true],
    ['Stopp', true],
    ['  abmelden ', true],
    ['STOP!', true],
    ['stopp bitte', true],
    ['Please stop', false],
    ['stopping by later', false],
    ['', false],
    ['ABMELDUNG', false],
  ])('%j opts out: %s', (text, stop) => {
    expect(isStopReply(text)).toBe(stop);
  });
});

describe("Kannel's receipt types", () => {
  it.each([
    [1, 'delivered'],
    [2, 'failed'],
    [4, 'queued'],
    [8, 'sent'],
    [16, 'failed'],
    [0, null],
    [3, null],
    [31, null],
  ])('type %i is %s', (type, status) => {
    expect(kannelReceiptStatus(type)).toBe(status);
  });

  it('ranks a state so that only forward moves apply, delivered and failed both final', () => {
    expect(STATUS_RANK.queued).toBeLessThan(STATUS_RANK.sent);
    expect(STATUS_RANK.sent).toBeLessThan(STATUS_RANK.delivered);
    expect(STATUS_RANK.delivered).toBe(STATUS_RANK.failed);
  });
});

describe('the SMS text', () => {
  it('puts the message on one line, closes blank lines and ends with the way out, in the language', () => {
    expect(recipientSmsText('en', 'Hello Ada,\n\nyour delivery is scheduled.\n\nFollow it live: https://t.example/track/x')).toBe(
      'Hello Ada, your delivery is scheduled. Follow it live: https://t.example/track/x Reply STOP to opt out.',
    );
    expect(recipientSmsText('de', 'Hallo,\nIhre Lieferung.')).toBe('Hallo, Ihre Lieferung. Antworten Sie STOPP zum Abmelden.');
  });

  it('writes dashes, curly quotes and special spaces plainly, and leaves letters alone', () => {
    expect(gsmFriendly('Tue, 14:00\u202fCEST \u2013 16:00 \u201cleft\u201d it\u2019s\u2026 \u674e')).toBe('Tue, 14:00 CEST - 16:00 "left" it\'s... \u674e');
  });
});

describe('the callback secret', () => {
  const withSecret = loadConfig({ SMS_PROVIDER: 'kannel', SMS_URL: 'http://kannel:13013/cgi-bin/sendsms', SMS_CALLBACK_SECRET: 'a-secret-of-some-length' });

  it('answers 404 when no secret is configured (there are no callbacks), 401 for a missing or wrong one', () => {
    const status = (config: typeof withSecret, given: string | undefined) => {
      try {
        checkCallbackSecret(config, given);
        return 'ok';
      } catch (err) {
        return (err as { status: number }).status;
      }
    };
    expect(status(loadConfig({}), 'anything')).toBe(404);
    expect(status(loadConfig({ SMS_PROVIDER: 'kannel', SMS_URL: 'http://kannel/cgi-bin/sendsms' }), 'anything')).toBe(404);
    expect(status(withSecret, undefined)).toBe(401);
    expect(status(withSecret, 'a-secret-of-some-lengthX')).toBe(401);
    expect(status(withSecret, 'a-secret-of-some-length')).toBe('ok');
  });
});

describe('SMS configuration', () => {
  it('takes SMS_PROVIDER with SMS_URL, the sender Tourbook by default, and refuses one without the other', () => {
    expect(loadConfig({}).sms).toBeNull();
    expect(loadConfig({ SMS_PROVIDER: 'kannel', SMS_URL: 'http://kannel:13013/cgi-bin/sendsms', SMS_USERNAME: 'tb' }).sms).toMatchObject({ provider: 'kannel', from: 'Tourbook', username: 'tb', password: null, callbackSecret: null });
    expect(() => loadConfig({ SMS_PROVIDER: 'kannel' })).toThrow(/SMS_URL is required when SMS_PROVIDER is set/);
    expect(() => loadConfig({ SMS_URL: 'http://kannel/cgi-bin/sendsms' })).toThrow(/SMS_PROVIDER is not/);
    expect(() => loadConfig({ SMS_PROVIDER: 'nexmo', SMS_URL: 'http://x/' })).toThrow(/SMS_PROVIDER must be one of kannel, smpp, twilio/);
    expect(() => loadConfig({ SMS_PROVIDER: 'kannel', SMS_URL: 'http://x/', SMS_FROM: 'A sender far too long' })).toThrow(/SMS_FROM/);
    expect(loadConfig({ SMS_PROVIDER: 'kannel', SMS_URL: 'http://x/', SMS_FROM: '+4930123456' }).sms?.from).toBe('+4930123456');
  });
});
