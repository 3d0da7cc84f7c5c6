import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/core/logger.js';

function capture(): { stream: PassThrough & { isTTY?: boolean }; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}

describe('createLogger', () => {
  it('writes one JSON object per line to a pipe, secrets redacted', () => {
    const out = capture();
    const logger = createLogger({ destination: out.stream });
    logger.info({ job: 'j1', token: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' }, 'job started');
    const line = JSON.parse(out.text().trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ msg: 'job started', job: 'j1', token: '[redacted]' });
  });

  it('writes a readable line to a terminal, and when pretty is asked for', () => {
    const tty = capture();
    tty.stream.isTTY = true;
    createLogger({ destination: tty.stream }).warn({ job: 'j1' }, 'model is slow');
    expect(tty.text()).toMatch(/WARN.*model is slow/);
    expect(() => JSON.parse(tty.text().trim()) as unknown).toThrow();

    const piped = capture();
    createLogger({ destination: piped.stream, format: 'pretty' }).info(
      { apiKey: 'sk-live-123456789012345678901234' },
      'configured',
    );
    expect(piped.text()).toContain('configured');
    expect(piped.text()).toContain('[redacted]');
    expect(piped.text()).not.toContain('sk-live');
  });

  it('writes JSON to a terminal when json is asked for', () => {
    const tty = capture();
    tty.stream.isTTY = true;
    createLogger({ destination: tty.stream, format: 'json' }).info('ready');
    expect(JSON.parse(tty.text().trim())).toMatchObject({ msg: 'ready' });
  });
});
