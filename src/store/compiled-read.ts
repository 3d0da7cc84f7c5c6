import type { Compilable, Kysely } from 'kysely';

/**
 * A read compiled to SQL once and run with each call's values. Kysely builds and compiles a query
 * on every call, which costs about as much as running one of the store's indexed reads; a hot read
 * of a fixed shape needs the SQL only once. The query is built with `placeholders` (distinct
 * values) and each of them is found again among the compiled parameters, so the call's arguments
 * go where the placeholders were, whatever order the SQL names them in.
 */
export function compiledRead<Args extends unknown[], Row>(
  db: Kysely<unknown>,
  build: (...args: Args) => Compilable<Row>,
  placeholders: Args,
): (...args: Args) => Promise<Row[]> {
  if (new Set(placeholders).size !== placeholders.length) {
    throw new Error('compiledRead needs distinct placeholders to tell the parameters apart');
  }
  const compiled = build(...placeholders).compile();
  const positions = compiled.parameters.map((value) => placeholders.indexOf(value));
  if (positions.includes(-1))
    throw new Error('compiledRead: the query holds a value that is not a placeholder');
  return async (...args) => {
    const result = await db.executeQuery<Row>({ ...compiled, parameters: positions.map((at) => args[at]) });
    return result.rows;
  };
}
