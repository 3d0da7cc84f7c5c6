/**
 * Loaded with `--import` before src/cli.ts: instead of parsing the arguments, the program prints
 * its command tree (each command's path and long flags) as JSON and exits. Tests walk the real
 * program this way, in one process, without running any command.
 */
import { Command } from 'commander';

export interface CommandFlags {
  /** `''` for the program itself, else e.g. `job create`. */
  path: string;
  flags: string[];
}

function walk(command: Command, names: string[]): CommandFlags[] {
  return [
    { path: names.join(' '), flags: command.options.map((option) => option.long ?? option.flags) },
    ...command.commands.flatMap((child) => walk(child, [...names, child.name()])),
  ];
}

Command.prototype.parseAsync = function (this: Command) {
  process.stdout.write(JSON.stringify(walk(this, [])));
  process.exit(0);
};
