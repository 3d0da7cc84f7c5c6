/** A failure the Action explains in one sentence: shown as the step's error, never with a stack. */
export class ActionError extends Error {
  override readonly name = 'ActionError';
}
