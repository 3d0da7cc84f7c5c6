import type { Answer } from '../answer/types.js';

export interface AnswerStreamInput {
  messageId: string;
  threadId: string;
  answer: Answer;
  /** Extra response headers (`X-Thread-Id`, rate limits, CORS is added by its middleware). */
  headers: Record<string, string>;
  /** Called with the whole text once it has been streamed: the thread stores it. */
  onComplete(text: string): Promise<void>;
  /** Called with a failure mid-stream: it goes to the log; the client sees a generic message. */
  onError(error: unknown): void;
}
