import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createInterface } from 'node:readline';
import { freePort } from './free-port.js';

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** The banner lines `serve` printed on stdout. */
  banner: string[];
  /** Where the process's log (stderr) is written. */
  logFile: string;
  /** Kilobytes from /proc/<pid>/status: peak resident memory (VmHWM) and current (VmRSS). */
  memory(): { peakKb: number; residentKb: number };
  stop(): Promise<void>;
}

/** `docwright serve` as a user runs it, on a free port, its log going to `logFile`. */
export async function startServeProcess(
  dataDir: string,
  env: NodeJS.ProcessEnv,
  logFile: string,
): Promise<ServeProcess> {
  const port = await freePort();
  const log = fs.openSync(logFile, 'a', 0o600);
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli.ts',
      '--data-dir',
      dataDir,
      'serve',
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
    ],
    { env, stdio: ['ignore', 'pipe', log] },
  );
  fs.closeSync(log);
  const banner: string[] = [];
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      banner.push(line);
      if (line.startsWith('docwright is serving on')) resolve();
    });
    child.once('exit', (code) =>
      reject(new Error(`serve exited with ${code}: ${fs.readFileSync(logFile, 'utf8')}`)),
    );
  });
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    banner,
    logFile,
    memory() {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const field = (name: string) =>
        Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
      return { peakKb: field('VmHWM'), residentKb: field('VmRSS') };
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
