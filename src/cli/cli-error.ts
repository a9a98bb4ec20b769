// CliError: a failure the user can fix, printed as its one-line message (no stack trace) with its exit code.
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
