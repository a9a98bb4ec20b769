import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { closeSmsGateways, smsGatewayFor } from './index.ts';

afterAll(closeSmsGateways);

describe('SMS_PROVIDER and SMS_URL per provider', () => {
  it('takes Twilio with its Account SID and Auth Token, and refuses it without them', () => {
    const twilio = { SMS_PROVIDER: 'twilio', SMS_URL: 'https://api.twilio.com' };
    expect(loadConfig({ ...twilio, SMS_USERNAME: 'AC123', SMS_PASSWORD: 'token' }).sms).toMatchObject({ provider: 'twilio', url: 'https://api.twilio.com', username: 'AC123', password: 'token' });
    expect(() => loadConfig(twilio)).toThrow(/SMS_PROVIDER=twilio needs SMS_USERNAME \(the Account SID\) and SMS_PASSWORD \(the Auth Token\)/);
    expect(() => loadConfig({ ...twilio, SMS_USERNAME: 'AC123' })).toThrow(/SMS_PROVIDER=twilio needs/);
  });

  it('takes SMPP only with an smpp:// URL, and the HTTP providers only with http(s)', () => {
    expect(loadConfig({ SMS_PROVIDER: 'smpp', SMS_URL: 'smpp://smsc.example:2775', SMS_USERNAME: 'tourbook' }).sms).toMatchObject({ provider: 'smpp', url: 'smpp://smsc.example:2775' });
    expect(() => loadConfig({ SMS_PROVIDER: 'smpp', SMS_URL: 'http://smsc.example:2775' })).toThrow(/SMS_PROVIDER=smpp needs SMS_URL=smpp:\/\/host:port/);
    expect(() => loadConfig({ SMS_PROVIDER: 'kannel', SMS_URL: 'smpp://smsc.example:2775' })).toThrow(/SMS_PROVIDER=kannel needs an http\(s\) SMS_URL/);
    expect(() => loadConfig({ SMS_PROVIDER: 'smpp', SMS_URL: 'ftp://smsc.example' })).toThrow(/SMS_URL must be match pattern .*smpp/);
  });

  it('picks the adapter SMS_PROVIDER names', () => {
    const of = (env: Record<string, string>) => smsGatewayFor(loadConfig(env))?.provider ?? null;
    expect(of({})).toBeNull();
    expect(of({ SMS_PROVIDER: 'kannel', SMS_URL: 'http://kannel:13013/cgi-bin/sendsms' })).toBe('kannel');
    expect(of({ SMS_PROVIDER: 'twilio', SMS_URL: 'https://api.twilio.com', SMS_USERNAME: 'AC1', SMS_PASSWORD: 'x' })).toBe('twilio');
    expect(of({ SMS_PROVIDER: 'smpp', SMS_URL: 'smpp://127.0.0.1:1' })).toBe('smpp'); // lazy: nothing connects yet
  });
});
