import { describe, expect, it } from 'vitest';
import { subscriptionMatches, type MatchableSubscription } from './matching.ts';

const AREA = '0190d7a0-0000-7000-8000-000000000001';
const CUSTOMER = '0190d7a0-0000-7000-8000-000000000002';
const SUB = '0190d7a0-0000-7000-8000-000000000003';
const sub = (patch: Partial<MatchableSubscription> = {}): MatchableSubscription => ({ id: SUB, active: true, events: ['*'], filters: {}, ...patch });

describe('subscriptionMatches', () => {
  it.each([
    ['"*" takes every event', sub(), 'tour.created', {}, [], true],
    ['a listed type', sub({ events: ['tour.created'] }), 'tour.created', {}, [], true],
    ['an unlisted type', sub({ events: ['tour.created'] }), 'booking.created', {}, [], false],
    ['an inactive subscription', sub({ active: false }), 'tour.created', {}, [], false],
    ['service area filter, same area', sub({ filters: { service_area_id: AREA } }), 'tour.created', { service_area_id: AREA }, [], true],
    ['service area filter, other area', sub({ filters: { service_area_id: AREA } }), 'tour.created', { service_area_id: CUSTOMER }, [], false],
    ['service area filter, no area in data', sub({ filters: { service_area_id: AREA } }), 'tour.created', {}, [], false],
    ['customer filter, same customer', sub({ filters: { customer_id: CUSTOMER } }), 'booking.created', { customer_id: CUSTOMER }, [], true],
    ['customer filter, other customer', sub({ filters: { customer_id: CUSTOMER } }), 'booking.created', { customer_id: AREA }, [], false],
    ['busyness without the extension', sub(), 'busyness.place_changed', {}, [], false],
    ['busyness with the extension', sub(), 'busyness.place_changed', {}, ['busyness'], true],
    ['a test ping for this subscription', sub({ events: ['tour.created'] }), 'webhook.test', { subscription_id: SUB }, [], true],
    ['a test ping for another subscription', sub(), 'webhook.test', { subscription_id: AREA }, [], false],
  ] as const)('%s', (_name, subscription, type, data, extensions, expected) => {
    expect(subscriptionMatches(subscription, { type, data }, [...extensions])).toBe(expected);
  });
});
