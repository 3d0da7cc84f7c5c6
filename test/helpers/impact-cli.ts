import { spawn } from 'node:child_process';
import path from 'node:path';

const CLI = path.resolve('src/cli.ts');
const TSX = path.resolve('node_modules/tsx/dist/loader.mjs');

export interface ImpactOutcome {
  stdout: string;
  stderr: string;
  code: number;
}

/** Runs `docwright impact ...` as a CI step does, a process of its own, in `cwd`, with `stdin` piped in when given. */
export function impact(cwd: string, args: string[], stdin?: string): Promise<ImpactOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, CLI, 'impact', ...args], {
      cwd,
      env: { ...process.env, LOG_LEVEL: 'silent' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code: code ?? -1 }));
    child.stdin.end(stdin ?? '');
  });
}
