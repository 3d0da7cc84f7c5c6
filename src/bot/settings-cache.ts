import {
  SETTINGS_FILE,
  settingsFromText,
  type RepositorySettings,
  type SettingsError,
} from '../github/settings.js';

/** Reads `.github/<file>`'s text: the repository's, else the owner's `.github` repository's; null when absent. */
export interface ConfigReader {
  settingsText(fileName: string): Promise<string | null>;
}

interface Entry {
  value: RepositorySettings | SettingsError;
  readAt: number;
}

/**
 * `.github/docwright.yml` per repository (or the fact that there is none), read through Probot's
 * `context.config` and remembered until a push to the default branch (where the file is read
 * from) forgets it: a change applies at once, and no command pays for re-reading an unchanged
 * file. The hour is insurance against a push webhook that never arrived.
 */
export class SettingsCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs = 60 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The settings, or a SettingsError saying in words what is wrong with the file. */
  async get(repository: string, reader: ConfigReader): Promise<RepositorySettings | SettingsError> {
    const key = repository.toLowerCase();
    const entry = this.entries.get(key);
    if (entry && this.now() - entry.readAt < this.ttlMs) return entry.value;
    const value = await read(reader);
    this.entries.set(key, { value, readAt: this.now() });
    return value;
  }

  /**
   * Forgets a repository's settings; a push to an owner's `.github` repository forgets all of the
   * owner's, since that file is every repository's fallback.
   */
  invalidate(repository: string): void {
    const key = repository.toLowerCase();
    const [owner, name] = key.split('/');
    if (name !== '.github') {
      this.entries.delete(key);
      return;
    }
    for (const cached of [...this.entries.keys()]) {
      if (cached.startsWith(`${owner}/`)) this.entries.delete(cached);
    }
  }
}

async function read(reader: ConfigReader): Promise<RepositorySettings | SettingsError> {
  return settingsFromText(await reader.settingsText(SETTINGS_FILE));
}
