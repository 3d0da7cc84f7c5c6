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

/** An answer ready to send: its headers, its first part and what writes the rest. */
export interface AnswerStream {
  headers: Record<string, string>;
  first: string;
  /** Writes the parts after the first; settles once the answer is complete (or failed and said so). */
  produce: (write: (text: string) => void) => Promise<void>;
}
