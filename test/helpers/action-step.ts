import nock from 'nock';
import { afterEach, beforeEach, expect, vi } from 'vitest';

/**
 * What an Action test file sets up around each test: the step's stdout (where its workflow commands
 * go) collected into the returned array, emptied before each test; and after each, the spies and
 * stubbed variables undone, the exit code cleared, and every mocked GitHub or server request shown
 * to have been made.
 */
export function actionStepOutput(): string[] {
  const stdout: string[] = [];
  beforeEach(() => {
    stdout.length = 0;
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stdout.push(String(chunk));
      return true;
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    process.exitCode = undefined;
    expect(nock.pendingMocks()).toEqual([]);
    nock.cleanAll();
  });
  return stdout;
}
