/**
 * The one back-off of every retry docwright makes (a job's next run, the API client's next
 * request): doubled for each attempt from `baseMs`, up to `capMs`; with `jitter`, spread by a
 * quarter either way so clients that failed together do not come back together.
 */
export function retryDelayMs(
  attempt: number,
  {
    baseMs = 1000,
    capMs = 60_000,
    jitter = false,
  }: { baseMs?: number; capMs?: number; jitter?: boolean } = {},
): number {
  const delay = Math.min(capMs, baseMs * 2 ** (Math.max(1, attempt) - 1));
  return jitter ? delay * (0.75 + Math.random() * 0.5) : delay;
}
