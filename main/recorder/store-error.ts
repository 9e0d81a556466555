// The session writer's failures, each with a reason callers can branch on and an AppError code for the API.
import { AppError, type ErrorCode } from '../../shared/result.ts';

export type StoreFailure =
  'session_closed' | 'session_locked' | 'lock_lost' | 'config_locked' | 'session_not_found' | 'invalid_session' | 'too_large' | 'invalid_input';

const CODES: Record<StoreFailure, ErrorCode> = {
  session_closed: 'CONFLICT',
  session_locked: 'CONFLICT',
  lock_lost: 'CONFLICT',
  config_locked: 'CONFLICT',
  session_not_found: 'NOT_FOUND',
  invalid_session: 'UNREADABLE',
  too_large: 'INVALID_INPUT',
  invalid_input: 'INVALID_INPUT',
};

export class StoreError extends AppError {
  readonly reason: StoreFailure;
  constructor(reason: StoreFailure, message: string, field?: string) {
    super(CODES[reason], message, field);
    this.name = 'StoreError';
    this.reason = reason;
  }
}
