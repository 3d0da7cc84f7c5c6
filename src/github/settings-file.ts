/** The file, under `.github/`, that configures docwright for a repository. */
export const SETTINGS_FILE = 'docwright.yml';
