-- A service area's SMS quiet hours (contract §18, decision 1772): {from, to} as "HH:MM" on the area's clock, or null
-- for none. An SMS due inside them waits until they end.
ALTER TABLE "service_areas" ADD COLUMN "sms_quiet_hours" jsonb;
