/**
 * `pnpm bench --only=…` (not `--quick`): the sections that ran replace their own rows and
 * tables in the committed results, and every other section's figures stay as they were.
 */

/** A table line's cells, trimmed. */
const cellsOf = (line: string) =>
  line
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());

/**
 * Replaces the rows of the first targets table in `text` whose section (first cell) is in
 * `sections` with `rows` (table lines), where the first of them was, or at the table's end;
 * then sets the line that says when those rows were measured.
 */
export function replaceTargetRows(
  text: string,
  sections: ReadonlySet<string>,
  rows: readonly string[],
  measuredNote: string,
): string {
  const lines = text.split('\n');
  const header = lines.findIndex((line) => line.startsWith('| section '));
  if (header < 0) return text;
  let end = header + 2;
  while (end < lines.length && lines[end]!.startsWith('|')) end += 1;
  const body = lines.slice(header + 2, end);
  const first = body.findIndex((line) => sections.has(cellsOf(line)[0]!));
  const kept = body.filter((line) => !sections.has(cellsOf(line)[0]!));
  const at = first < 0 ? kept.length : first;
  const newBody = [...kept.slice(0, at), ...rows, ...kept.slice(at)];
  // The note of an earlier partial run of the same sections goes; others stay.
  const noteKey = measuredNote.slice(0, measuredNote.indexOf(':') + 1);
  const after = lines.slice(end).filter((line) => !line.startsWith(noteKey));
  return [...lines.slice(0, header + 2), ...newBody, '', measuredNote, ...after]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

/**
 * Replaces the part of a results page under `## <title>` (up to the next `## ` heading) with
 * `markdown`, or appends it when the page has no such part.
 */
export function replaceSectionPart(text: string, title: string, markdown: string): string {
  const heading = `## ${title}\n`;
  const from = text.indexOf(heading);
  const part = `${heading}\n${markdown}\n\n`;
  if (from < 0) return `${text.trimEnd()}\n\n${part}`;
  const next = text.indexOf('\n## ', from + heading.length);
  return `${text.slice(0, from)}${part}${next < 0 ? '' : text.slice(next + 1)}`;
}
