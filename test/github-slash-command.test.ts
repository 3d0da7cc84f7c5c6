import { describe, expect, it } from 'vitest';
import { parseSlashCommand } from '../src/github/index.js';

describe('parseSlashCommand', () => {
  it('reads the instruction after the command on the first line', () => {
    expect(parseSlashCommand('/docs fix the quickstart link')).toEqual({
      command: '/docs',
      instruction: 'fix the quickstart link',
    });
  });

  it('keeps later lines as part of the instruction, with Windows line endings normalised', () => {
    expect(parseSlashCommand('/docs rename the page\r\n\r\nAlso update the sidebar.\r\n')?.instruction).toBe(
      'rename the page\n\nAlso update the sidebar.',
    );
    expect(parseSlashCommand('/docs\nreplace "a" with "b"')?.instruction).toBe('replace "a" with "b"');
  });

  it('ignores a command anywhere but the first line, and words that only start like it', () => {
    expect(parseSlashCommand('Could someone run\n/docs fix it')).toBeNull();
    expect(parseSlashCommand('> /docs fix it\n\nI agree')).toBeNull();
    expect(parseSlashCommand('/docsy fix it')).toBeNull();
    expect(parseSlashCommand('')).toBeNull();
  });

  it('matches case-insensitively after leading blank space, like a workflow startsWith filter', () => {
    expect(parseSlashCommand('  /DOCS fix it')?.instruction).toBe('fix it');
  });

  it('returns an empty instruction for a bare command, and answers to a configured command', () => {
    expect(parseSlashCommand('/docs  ')).toEqual({ command: '/docs', instruction: '' });
    expect(parseSlashCommand('/write add a FAQ', '/write')?.instruction).toBe('add a FAQ');
    expect(parseSlashCommand('/docs add a FAQ', '/write')).toBeNull();
  });
});
