// Imports every module that registers job handlers, so the registry is complete before the worker starts.
import '../http/idempotency-purge.ts';
import '../mail/jobs.ts';
import '../modules/busyness/jobs.ts';
import '../modules/dispatch/tours/jobs.ts';
import './debounce.ts';
import '../modules/live/jobs.ts';
import '../modules/reports/jobs.ts';
import '../modules/compensation/jobs.ts';
