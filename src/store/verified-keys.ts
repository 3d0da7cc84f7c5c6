/** How long a key found in the database is trusted without asking again. */
export const VERIFIED_KEY_TTL_MS = 5_000;

/** Bound on remembered keys, so many distinct keys cannot grow the process without limit. */
const MAX_KEYS = 10_000;

/**
 * Keys found by their hash, remembered for a few seconds: every request starts with this lookup,
 * and a key rarely changes. A key revoked or deleted in the database (by any process) stops
 * working within the TTL. Unknown hashes are never remembered, so a key just created elsewhere
 * works at once and a flood of wrong keys fills nothing.
 */
export class VerifiedKeys<Row> {
  private readonly entries = new Map<string, { row: Row; until: number }>();

  constructor(
    private readonly ttlMs = VERIFIED_KEY_TTL_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get(hash: string): Row | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.until > this.now()) return entry.row;
    this.entries.delete(hash);
    return undefined;
  }

  remember(hash: string, row: Row): void {
    this.entries.delete(hash);
    this.entries.set(hash, { row, until: this.now() + this.ttlMs });
    // Insertion order is age order: the first entry is the oldest.
    if (this.entries.size > MAX_KEYS) this.entries.delete(this.entries.keys().next().value!);
  }
}
