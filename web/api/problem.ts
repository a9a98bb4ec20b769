// problem+json answers as one error type the pages show in words: the detail for the page, each field error at the
// field its JSON pointer names.
import type { Schemas } from '../../clients/typescript/src/index.ts';

export type FieldError = Schemas['FieldError'];

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fieldErrors: FieldError[];
  readonly problem: Record<string, unknown>;

  constructor(status: number, problem: Record<string, unknown>) {
    const detail = typeof problem.detail === 'string' ? problem.detail : `HTTP ${status}`;
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.code = typeof problem.error_code === 'string' ? problem.error_code : 'unknown';
    this.fieldErrors = Array.isArray(problem.errors) ? (problem.errors as FieldError[]) : [];
    this.problem = problem;
  }

  /** The field errors whose pointer is `pointer` or lies below it (`/booking/stops/0` covers `/booking/stops/0/place_id`). */
  at(pointer: string): FieldError[] {
    return this.fieldErrors.filter((e) => e.pointer === pointer || e.pointer.startsWith(`${pointer}/`));
  }
}

/** Network failures (no answer at all) are told apart from answers: the banner handles those. */
export class ConnectionError extends Error {
  constructor() {
    super('connection lost');
    this.name = 'ConnectionError';
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;
