import type { Logger } from '../core/logger.js';
import type { Store } from '../store/index.js';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Deletes readers' threads, messages and feedback older than `days`, now and then once a day
 * (every replica does; the deletes are idempotent). Returns what stops it.
 */
export function startThreadRetention(options: {
  store: Store;
  days: number;
  logger: Logger;
  now?: () => Date;
}): () => Promise<void> {
  const { store, days, logger } = options;
  const now = options.now ?? (() => new Date());
  const prune = async () => {
    try {
      const removed = await store.feedback.prune(new Date(now().getTime() - days * DAY_MS));
      if (removed.threads + removed.messages + removed.feedback > 0)
        logger.info({ ...removed, days }, 'deleted readers’ threads past DOCWRIGHT_THREAD_DAYS');
    } catch (error) {
      // A database that cannot answer now is tried again the next day; nothing is lost by waiting.
      logger.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'deleting old readers’ threads failed; trying again in a day',
      );
    }
  };
  const first = prune();
  const timer = setInterval(() => void prune(), DAY_MS);
  timer.unref();
  // Stopping waits for the first pass, which may still be deleting when the service closes the store.
  return async () => {
    clearInterval(timer);
    await first;
  };
}
