/** How often the weekly work looks for projects whose week is out: the work claims each itself. */
const CHECK_MS = 3600 * 1000;
/** The first look, a while after start: a server restarted in a loop does not hammer GitHub. */
const FIRST_MS = 5 * 60 * 1000;

/**
 * Runs `pass` a few minutes after start and then every hour. The pass decides per project whether
 * its week is out (from the time stored with it), so a restart or a second replica does not run
 * anything twice. Returns what stops it.
 */
export function startWeekly(pass: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout;
  const schedule = (ms: number) => {
    timer = setTimeout(run, ms);
    timer.unref();
  };
  // The next look is planned when a pass ends, so a slow pass never runs beside itself.
  const run = () => {
    running = pass()
      .catch(() => undefined)
      .finally(() => schedule(CHECK_MS));
  };
  schedule(FIRST_MS);
  // Stopping waits for a pass under way, which may still be writing when the service closes the store.
  return async () => {
    clearTimeout(timer);
    await running;
    clearTimeout(timer);
  };
}
