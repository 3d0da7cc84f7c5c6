import type { Compilable } from 'kysely';
import { DocwrightError } from '../core/errors.js';
import type { OpenDatabase } from './database.js';

/**
 * A read compiled to SQL once and run with each call's values. Kysely builds and compiles a query
 * on every call, which costs about as much as running one of the store's indexed reads; a hot read
 * of a fixed shape needs the SQL only once. The query is built with `placeholders` (distinct
 * values) and each of them is found again among the compiled parameters, so the call's arguments
 * go where the placeholders were, whatever order the SQL names them in.
 *
 * On SQLite the SQL runs on a prepared statement of its own that hands back each row as an array
 * of values: better-sqlite3 builds a row object by creating every column's name string again and
 * setting it as a property from C++, which cost more than the query itself; the rows are built
 * here with the names read once. The reads of one turn of the event loop run together in one read
 * transaction (see SqliteReadBatch). On PostgreSQL the compiled query goes through Kysely.
 */
export function compiledRead<Args extends unknown[], Row>(
  database: OpenDatabase,
  build: (...args: Args) => Compilable<Row>,
  placeholders: Args,
): (...args: Args) => Promise<Row[]> {
  if (new Set(placeholders).size !== placeholders.length) {
    throw misuse('compiledRead needs distinct placeholders to tell the parameters apart');
  }
  const compiled = build(...placeholders).compile();
  const positions = compiled.parameters.map((value) => placeholders.indexOf(value));
  if (positions.includes(-1)) throw misuse('compiledRead: the query holds a value that is not a placeholder');
  const values = (args: Args) => positions.map((at) => args[at]);

  const throughKysely = async (args: Args) =>
    (await database.db.executeQuery<Row>({ ...compiled, parameters: values(args) })).rows;
  if (database.dialect === 'postgres') return (...args) => throughKysely(args);
  const { sqlite, reads } = database;
  const statement = sqlite.prepare(compiled.sql).raw(true);
  const columns = statement.columns().map((column) => column.name);
  const named = (rows: unknown[][]) =>
    rows.map((row) => {
      const each: Record<string, unknown> = {};
      for (let index = 0; index < columns.length; index += 1) each[columns[index]!] = row[index];
      return each as Row;
    });
  return async (...args) => {
    // A transaction of Kysely's is open across an await on the one connection: a read now would see
    // its writes before they commit or roll back. Through Kysely, the read waits for its end.
    if (sqlite.inTransaction) return throughKysely(args);
    return reads.run(() => named(statement.all(values(args)) as unknown[][]));
  };
}

/** A query written wrong in docwright's own code: it fails the same way on every call. */
function misuse(message: string): DocwrightError {
  return new DocwrightError('internal_error', message, { retryable: false });
}
