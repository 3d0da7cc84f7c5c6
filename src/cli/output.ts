/** Where a command writes: what it produced on stdout, notes and progress on stderr. */
export interface Output {
  /** Whether data is written as JSON: asked for with --json, or stdout is not a terminal. */
  readonly json: boolean;
  /** A line of text on stdout, as it is. */
  print(text: string): void;
  /** One value: JSON for programs, `human()` for a person at a terminal. */
  data(value: unknown, human: () => string): void;
  /**
   * A list: aligned columns under a header at a terminal, tab-separated lines without a header in a
   * pipe (for `cut` and `awk`, as `gh` does), `value` as JSON with --json.
   */
  rows(records: Array<Record<string, string>>, value: unknown): void;
  /** A note for the person (progress, a hint): stderr, so stdout stays parseable. */
  note(text: string): void;
}

interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export function createOutput(
  options: { json?: boolean },
  stdout: Stream = process.stdout,
  stderr: Stream = process.stderr,
): Output {
  const terminal = stdout.isTTY === true;
  const print = (text: string) => {
    if (text !== '') stdout.write(`${text}\n`);
  };
  const printJson = (value: unknown) => print(JSON.stringify(value, null, 2));
  const json = options.json === true || !terminal;
  return {
    json,
    print,
    data(value, human) {
      if (json) printJson(value);
      else print(human());
    },
    rows(records, value) {
      if (options.json === true) return printJson(value);
      if (!terminal) return print(records.map((record) => Object.values(record).join('\t')).join('\n'));
      if (records.length === 0) return;
      print(columns(records));
    },
    note(text) {
      stderr.write(`${text}\n`);
    },
  };
}

/** Records as columns, headed by their keys in capitals, padded to the widest value. */
function columns(records: Array<Record<string, string>>): string {
  const headers = Object.keys(records[0] ?? {});
  const table = [
    headers.map((header) => header.toUpperCase()),
    ...records.map((record) => headers.map((h) => record[h] ?? '')),
  ];
  const widths = headers.map((_, column) => Math.max(...table.map((row) => (row[column] ?? '').length)));
  return table
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
        .join('  '),
    )
    .join('\n');
}
