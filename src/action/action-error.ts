import { DocwrightError, type DocwrightErrorOptions, type ErrorCode } from '../core/errors.js';

/**
 * A failure the Action explains in one sentence: shown as the step's error, never with a stack.
 * Most are a workflow set up wrong (an input, an event, a settings file), which a rerun of the
 * same workflow repeats: `invalid_request` and not retryable unless the thrower says otherwise.
 */
export class ActionError extends DocwrightError {
  override readonly name = 'ActionError';
  constructor(message: string, options: DocwrightErrorOptions & { code?: ErrorCode } = {}) {
    const { code = 'invalid_request', ...rest } = options;
    super(code, message, rest);
  }
}
