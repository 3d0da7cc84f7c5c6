/**
 * The llms.txt format as llmstxt.org specifies it: an H1 with the project's name (the only
 * required part), then an optional blockquote summary, then any Markdown but headings, then H2
 * sections, each a list of `- [name](url)` links optionally followed by `: notes`.
 * Returns the problems found and the links of the file lists.
 */
export function checkLlmsText(text: string): { problems: string[]; links: { title: string; url: string }[] } {
  const problems: string[] = [];
  const links: { title: string; url: string }[] = [];
  const lines = text.split('\n');
  if (!/^# \S/.test(lines[0] ?? '')) problems.push('the first line is not an H1');
  let section: string | undefined;
  let sawBlockquote = false;
  for (const [number, line] of lines.entries()) {
    if (number === 0 || line.trim() === '') continue;
    const where = `line ${number + 1}`;
    if (/^# /.test(line)) problems.push(`${where}: a second H1`);
    else if (/^#{3,6} /.test(line)) problems.push(`${where}: a heading other than H1 or H2`);
    else if (/^## \S/.test(line)) section = line.slice(3);
    else if (line.startsWith('>')) {
      if (section !== undefined || sawBlockquote) problems.push(`${where}: a blockquote after the summary`);
      sawBlockquote = true;
    } else if (section !== undefined) {
      const link = /^- \[((?:[^\]\\]|\\.)+)\]\(([^)\s]+)\)(?:: (.+))?$/.exec(line);
      if (!link) problems.push(`${where}: not a "- [name](url): notes" line in section ${section}`);
      else links.push({ title: link[1]!, url: link[2]! });
    }
  }
  return { problems, links };
}
