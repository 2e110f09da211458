/** Pulls fenced code blocks out of Markdown, remembering where each one starts. */

/** A fenced code block of a Markdown file. */
export interface CodeBlock {
  /** The info string's first word, e.g. `ts`. */
  lang: string;
  /** The rest of the info string, e.g. `no-check`. */
  meta: string;
  /** The code between the fences. */
  code: string;
  /** 1-based line of the first code line in the Markdown file. */
  line: number;
}

const OPENING = /^( {0,3})(`{3,}|~{3,})\s*([\w-]*)\s*(.*)$/;

/**
 * Finds every fenced code block (backtick or tilde fences, CommonMark rules for the closing
 * fence: same character, at least as long, nothing after it).
 */
export function extractCodeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: CodeBlock[] = [];
  let index = 0;
  while (index < lines.length) {
    const open = OPENING.exec(lines[index]!);
    index += 1;
    if (!open) continue;
    const [, indent = '', fence = '', lang = '', meta = ''] = open;
    if (fence.startsWith('`') && meta.includes('`')) continue;
    const start = index;
    const closing = new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`);
    while (index < lines.length && !closing.test(lines[index]!)) index += 1;
    const body = lines.slice(start, index).map((line) => stripIndent(line, indent.length));
    blocks.push({ lang, meta: meta.trim(), code: body.join('\n'), line: start + 1 });
    index += 1;
  }
  return blocks;
}

function stripIndent(line: string, width: number): string {
  let removed = 0;
  while (removed < width && line[removed] === ' ') removed += 1;
  return line.slice(removed);
}
