// The pure reports rules, table by table: grant matching, what a creator may grant, the state machine, file names.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seesReport, grantErrors, grantMatches, grantProbes, mayManage } from './access.ts';
import { contentDisposition } from './content-disposition.ts';
import { effectiveStatus, nextStatus } from './report-machine.ts';
import type { Grant, ReportStatus } from './tables.ts';

const ORG_A = 'a0000000-0000-7000-8000-000000000000';
const ORG_B = 'b0000000-0000-7000-8000-000000000000';
const actors = {
  admin: { role: 'admin' as const, userId: 'admin', organizationIds: [] },
  managerA: { role: 'manager' as const, userId: 'managerA', organizationIds: [ORG_A] },
  driverA: { role: 'driver' as const, userId: 'driverA', organizationIds: [ORG_A] },
  customer: { role: 'customer' as const, userId: 'customer', organizationIds: [] },
};
type Who = keyof typeof actors;

describe('grant matching', () => {
  const table: [Grant, Who[]][] = [
    [{ type: 'all_admins' }, ['admin']],
    [{ type: 'organization_managers', organization_id: ORG_A }, ['managerA']],
    [{ type: 'organization_managers', organization_id: ORG_B }, []],
    [{ type: 'user', user_id: 'driverA' }, ['driverA']],
    [{ type: 'user', user_id: 'admin' }, ['admin']],
  ];
  it.each(table)('%j reaches exactly %j', (grant, who) => {
    for (const [name, actor] of Object.entries(actors)) expect(grantMatches(actor, grant)).toBe(who.includes(name as Who));
  });

  it('property: seesReport equals "some grant matches", and the SQL probes contain exactly the matching grants', () => {
    const grant = fc.oneof(
      fc.constant<Grant>({ type: 'all_admins' }),
      fc.constantFrom(ORG_A, ORG_B).map((id): Grant => ({ type: 'organization_managers', organization_id: id })),
      fc.constantFrom('admin', 'managerA', 'driverA', 'customer', 'someone').map((id): Grant => ({ type: 'user', user_id: id })),
    );
    fc.assert(
      fc.property(fc.array(grant, { maxLength: 5 }), fc.constantFrom(...(Object.keys(actors) as Who[])), (grants, who) => {
        const actor = actors[who];
        const probes = grantProbes(actor).map((p) => JSON.stringify(p));
        expect(seesReport(actor, grants)).toBe(grants.some((g) => probes.includes(JSON.stringify(g))));
        expect(seesReport(actor, grants)).toBe(grants.some((g) => grantMatches(actor, g)));
      }),
    );
  });

  it('management: the creator always, an admin only through a grant, nobody else', () => {
    expect(mayManage(actors.managerA, { createdById: 'managerA', grants: [] })).toBe(true);
    expect(mayManage(actors.admin, { createdById: 'x', grants: [] })).toBe(false);
    expect(mayManage(actors.admin, { createdById: 'x', grants: [{ type: 'all_admins' }] })).toBe(true);
    expect(mayManage(actors.managerA, { createdById: 'x', grants: [{ type: 'organization_managers', organization_id: ORG_A }] })).toBe(false);
  });
});

describe('what a creator may grant', () => {
  const known = { organizationIds: new Set([ORG_A, ORG_B]), visibleUserIds: new Set(['driverA']) };
  const table: [Who, Grant, string | null][] = [
    ['admin', { type: 'all_admins' }, null],
    ['admin', { type: 'organization_managers', organization_id: ORG_B }, null],
    ['admin', { type: 'user', user_id: 'driverA' }, null],
    ['admin', { type: 'user', user_id: 'ghost' }, '/report/grants/0/user_id unknown_reference'],
    ['managerA', { type: 'all_admins' }, '/report/grants/0 not_allowed'],
    ['managerA', { type: 'organization_managers', organization_id: ORG_A }, null],
    ['managerA', { type: 'organization_managers', organization_id: ORG_B }, '/report/grants/0 not_allowed'],
    ['managerA', { type: 'user', user_id: 'driverA' }, null],
    ['managerA', { type: 'user', user_id: 'customer' }, '/report/grants/0/user_id unknown_reference'],
  ];
  it.each(table)('%s granting %j → %s', (who, grant, expected) => {
    const errors = grantErrors(actors[who], [grant], known).map((e) => `${e.pointer} ${e.code}`);
    expect(errors).toEqual(expected ? [expected] : []);
  });
});

describe('the report state machine', () => {
  const STATES: ReportStatus[] = ['pending', 'ready', 'failed', 'expired'];
  const table: [ReportStatus, 'complete' | 'fail' | 'expire', ReportStatus | null][] = STATES.flatMap((from) => [
    [from, 'complete', from === 'pending' ? 'ready' : null],
    [from, 'fail', from === 'pending' ? 'failed' : null],
    [from, 'expire', from === 'expired' ? null : 'expired'],
  ]);
  it.each(table)('%s --%s--> %s', (from, event, to) => expect(nextStatus(from, event)).toBe(to));

  it('treats a report past expires_at as expired before the worker visits it', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    expect(effectiveStatus({ status: 'ready', expiresAt: at }, new Date(at.getTime() - 1))).toBe('ready');
    expect(effectiveStatus({ status: 'ready', expiresAt: at }, at)).toBe('expired');
  });
});

describe('Content-Disposition (RFC 6266 with RFC 8187 filename*)', () => {
  it.each([
    ['report.csv', `attachment; filename="report.csv"; filename*=UTF-8''report.csv`],
    ['Übersicht März.pdf', `attachment; filename="_bersicht M_rz.pdf"; filename*=UTF-8''%C3%9Cbersicht%20M%C3%A4rz.pdf`],
    ['a "quoted" \\ name.txt', `attachment; filename="a _quoted_ _ name.txt"; filename*=UTF-8''a%20%22quoted%22%20%5C%20name.txt`],
    ["it's (v2)*.txt", `attachment; filename="it's (v2)*.txt"; filename*=UTF-8''it%27s%20%28v2%29%2A.txt`],
    ['報告.xlsx', `attachment; filename="__.xlsx"; filename*=UTF-8''%E5%A0%B1%E5%91%8A.xlsx`],
  ])('%s', (name, header) => expect(contentDisposition(name)).toBe(header));

  it('property: the filename* parameter decodes back to the exact name', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }), (name) => {
        const encoded = contentDisposition(name).split("filename*=UTF-8''")[1]!;
        expect(/^[A-Za-z0-9%!#$&+.^_`|~-]*$/.test(encoded)).toBe(true);
        expect(decodeURIComponent(encoded)).toBe(name);
      }),
    );
  });
});
