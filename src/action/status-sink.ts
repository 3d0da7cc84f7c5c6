import { renderStatusComment, type StatusCommentWriter, type StatusView } from '../github/index.js';
import type { ActionContext } from './context.js';
import { describeError } from './describe-error.js';

/**
 * The status comment as the Action uses it: absent when `comment` is false or the event has no
 * thread, and never the reason a run fails. If GitHub refuses a comment, the job still runs and the
 * step's outputs still tell the result, so a refused write is a warning.
 */
export class StatusSink {
  private broken = false;

  constructor(
    private readonly context: ActionContext,
    private readonly writer: StatusCommentWriter | null,
  ) {}

  /** Whether anything is shown: callers skip work (listing a pull request's files) that only the comment needs. */
  get enabled(): boolean {
    return this.writer !== null && !this.broken;
  }

  get commentId(): number | null {
    return this.writer?.id ?? null;
  }

  async show(view: StatusView): Promise<void> {
    if (!this.writer || this.broken) return;
    try {
      await this.writer.show(renderStatusComment(view, this.context.links));
    } catch (error) {
      this.broken = true;
      const { baseUrl, projectId } = this.context.inputs;
      this.context.log.warning(
        `Could not write the status comment. ${describeError(error, { baseUrl, projectId })}`,
      );
    }
  }
}
