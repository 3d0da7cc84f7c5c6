import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { unauthorized } from '../core/errors.js';
import type { Metrics } from '../metrics/metrics.js';

/** `/metrics` as the configuration turns it on: open, or behind its own bearer token. */
export interface MetricsEndpoint {
  metrics: Metrics;
  /** Null: open to whoever reaches the server (keep it off the internet, or set a token). */
  token: string | null;
}

/** GET /metrics in Prometheus's text format. Mounted only when metrics are on: otherwise a 404. */
export function metricsRoute({ metrics, token }: MetricsEndpoint): Hono {
  const app = new Hono();
  app.get('/metrics', async (c) => {
    if (token !== null && !matches(c.req.header('authorization'), `Bearer ${token}`)) {
      throw unauthorized(
        'The metrics endpoint needs its token: Authorization: Bearer <DOCWRIGHT_METRICS_TOKEN>',
      );
    }
    const text = await metrics.registry.metrics();
    return c.body(text, 200, { 'content-type': metrics.registry.contentType });
  });
  return app;
}

function matches(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
