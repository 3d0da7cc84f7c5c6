import type { Store } from '../store/index.js';

/**
 * Runs `handle` once per webhook delivery id: GitHub redelivers on timeouts and people redeliver
 * by hand, and a redelivered command must not start a second job. A delivery whose handling
 * failed is forgotten, so its redelivery gets another chance.
 */
export async function oncePerDelivery(
  store: Store,
  delivery: { id: string; event: string },
  handle: () => Promise<void>,
): Promise<boolean> {
  if (!(await store.deliveries.claim(delivery.id, delivery.event))) return false;
  try {
    await handle();
    return true;
  } catch (error) {
    await store.deliveries.release(delivery.id).catch(() => undefined);
    throw error;
  }
}
