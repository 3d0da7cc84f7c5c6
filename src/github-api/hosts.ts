/**
 * Where a GitHub lives: the REST API root and the web root that links point at. github.com is the
 * default of every reader (the server's config, the Action's runner variables); GitHub Enterprise
 * Server answers both on its own host, the API under `/api/v3`.
 */
export interface GitHubHosts {
  /** REST API root, without a trailing slash: `https://api.github.com`, `https://HOST/api/v3`. */
  apiUrl: string;
  /** Web root, without a trailing slash: `https://github.com`, `https://HOST`. */
  webUrl: string;
}

/** github.com: the one place its addresses are written down. */
export const GITHUB_COM: GitHubHosts = { apiUrl: 'https://api.github.com', webUrl: 'https://github.com' };

/**
 * The hosts of a GitHub Enterprise Server as Probot reads `GHE_HOST` and `GHE_PROTOCOL`:
 * `<protocol>://<host>/api/v3` for the API and `<protocol>://<host>` for links.
 */
export function enterpriseHosts(host: string, protocol = 'https'): GitHubHosts {
  const root = `${protocol}://${host.replace(/\/+$/, '')}`;
  return { apiUrl: `${root}/api/v3`, webUrl: root };
}

/** The runner's `GITHUB_API_URL` / `GITHUB_SERVER_URL` (the Action), github.com when unset. */
export function runnerHosts(apiUrl: string | undefined, serverUrl: string | undefined): GitHubHosts {
  return {
    apiUrl: trimSlash(apiUrl || GITHUB_COM.apiUrl),
    webUrl: trimSlash(serverUrl || GITHUB_COM.webUrl),
  };
}

/** The host name a repository identity carries (`github.com`, `ghe.example.com:8443`). */
export function hostOf(hosts: GitHubHosts): string {
  return new URL(hosts.webUrl).host.toLowerCase();
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
