import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** How long a delivery id is remembered; GitHub redelivers within days, not weeks. */
const DELIVERY_MEMORY_MS = 7 * 24 * 3600 * 1000;
const iso = (date: Date) => date.toISOString();

/** GitHub webhook deliveries already handled, so a redelivery does nothing twice. */
export class DeliveryStore {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Claims a webhook delivery: true the first time an id is seen, false for a redelivery. Old ids
   * are forgotten on the way so the table stays small.
   */
  async claim(id: string, event: string, now = new Date()): Promise<boolean> {
    await this.db
      .deleteFrom('webhook_deliveries')
      .where('received_at', '<', iso(new Date(now.getTime() - DELIVERY_MEMORY_MS)))
      .execute();
    const result = await this.db
      .insertInto('webhook_deliveries')
      .values({ id, event, received_at: iso(now) })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .executeTakeFirst();
    return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }
  /** Forgets a delivery whose handling failed, so GitHub's redelivery can try again. */
  async release(id: string): Promise<void> {
    await this.db.deleteFrom('webhook_deliveries').where('id', '=', id).execute();
  }
}
