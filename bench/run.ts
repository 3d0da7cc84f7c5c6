/**
 * `npm run bench`: runs every benchmark and writes bench/RESULTS.md with the machine and the date.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import { runApiBenchmark } from './api-throughput.js';

const sections: string[] = [];
for (const [name, benchmark] of Object.entries({ api: runApiBenchmark })) {
  process.stderr.write(`bench: ${name}\n`);
  sections.push(await benchmark());
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const header = [
  '# Benchmark results',
  '',
  `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}.`,
  '',
].join('\n');
await fs.writeFile(new URL('./RESULTS.md', import.meta.url), `${header}\n${sections.join('\n\n')}\n`);
process.stderr.write('bench: wrote bench/RESULTS.md\n');
