import type { ThreadMessage } from '../store/index.js';

/** A thread that could not be stored (yet): who started it, and what was said in it. */
export interface UnstoredThread {
  projectId: string;
  domain: string;
  fp: string;
  messages: ThreadMessage[];
}

/** Threads kept while storage fails; the oldest go first past this many. */
const MAX_THREADS = 1000;
/** Messages kept per thread: what a follow-up needs, not a transcript. */
const MAX_MESSAGES = 40;

/**
 * Conversations the assistant answered while it could not store them (the disk full, the database
 * down): kept in this process, bounded, so a reader's next question continues the thread it was
 * given, and written to the store with the first message that can be stored.
 */
export class UnstoredThreads {
  private readonly threads = new Map<string, UnstoredThread>();

  get(id: string): UnstoredThread | undefined {
    return this.threads.get(id);
  }

  /** Remembers messages of a thread the store did not take. */
  add(id: string, thread: Omit<UnstoredThread, 'messages'>, messages: ThreadMessage[]): void {
    const known = this.threads.get(id);
    this.threads.delete(id); // the newest goes to the end: the oldest are dropped first
    const kept = [...(known?.messages ?? []), ...messages].slice(-MAX_MESSAGES);
    this.threads.set(id, { ...(known ?? thread), messages: kept });
    for (const oldest of this.threads.keys()) {
      if (this.threads.size <= MAX_THREADS) break;
      this.threads.delete(oldest);
    }
  }

  /** The thread was stored with its messages: nothing is left to keep. */
  stored(id: string): void {
    this.threads.delete(id);
  }
}
