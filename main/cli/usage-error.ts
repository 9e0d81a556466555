// An error the CLI reports as one plain line (exit code 2), never as a stack trace.
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
