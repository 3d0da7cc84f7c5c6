/** The edits the built-in agent knows, as parsed from an instruction (./parse-instruction.ts). */

/** Replace exact text in every Markdown/MDX file under the docs root. */
export interface ReplaceTextCommand {
  kind: 'replace-text';
  from: string;
  to: string;
}

/** Create a page, and list it in the navigation when the site has one. */
export interface AddPageCommand {
  kind: 'add-page';
  /** As typed: `guides/webhooks`, `guides/webhooks.md`, `/guides/webhooks`. */
  path: string;
  title?: string;
  description?: string;
  body?: string;
  /** A navigation group to list the page in. */
  group?: string;
  /** A page to list it after. */
  after?: string;
}

/** Add `## heading` and a body at the end of a page. */
export interface AppendSectionCommand {
  kind: 'append-section';
  /** A path (with or without extension), a URL path or a page title. */
  page: string;
  heading: string;
  body: string;
}

/** Delete a page and its navigation entry. */
export interface RemovePageCommand {
  kind: 'remove-page';
  page: string;
  /** Where the links to the removed page go instead (`... and point its links to Y`). */
  linksTo?: string;
}

/** Move a page, rename its navigation entry and repoint the links to it. */
export interface MovePageCommand {
  kind: 'move-page';
  from: string;
  to: string;
}

/** Repoint internal links: to `to`, or (without it) to the one page that matches the gone target. */
export interface RepointLinksCommand {
  kind: 'repoint-links';
  from: string;
  to?: string;
}

export type Command =
  | ReplaceTextCommand
  | AddPageCommand
  | AppendSectionCommand
  | RemovePageCommand
  | MovePageCommand
  | RepointLinksCommand;
