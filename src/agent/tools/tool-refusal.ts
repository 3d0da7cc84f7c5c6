import { DocwrightError } from '../../core/errors.js';

/**
 * A tool call the agent may not make, or that cannot work as asked (a missing file, ambiguous
 * text, a limit reached). Its message goes back to the model as the tool's result, so the model
 * can correct itself; it never ends the run.
 */
export class ToolRefusal extends DocwrightError {
  override readonly name = 'ToolRefusal';
  constructor(message: string) {
    super('invalid_request', message, { retryable: false });
  }
}
