/** Console output of the demo: plain text, with ANSI colour only when asked for. */

const CODES = { bold: 1, dim: 2, red: 31, green: 32, yellow: 33, cyan: 36 } as const;

/** A style name the demo uses. */
export type Style = keyof typeof CODES;

/**
 * Whether to colour: only when the stream is a terminal and `NO_COLOR` is unset or empty
 * (https://no-color.org).
 */
export function shouldUseColor(
  stream: { isTTY?: boolean },
  env: Record<string, string | undefined>,
): boolean {
  return stream.isTTY === true && !env.NO_COLOR;
}

/** Writes the demo's lines, in colour or plain. */
export interface Output {
  /** A section heading, numbered. */
  step(title: string): void;
  /** A plain line, indented under the current step. */
  line(text?: string): void;
  /** An outcome that went as expected. */
  ok(text: string): void;
  /** An outcome that did not go as expected. */
  fail(text: string): void;
  /** Wraps text in a style (or returns it unchanged without colour). */
  style(style: Style, text: string): string;
}

/** Creates an {@link Output} that writes each line with `write`. */
export function createOutput(write: (text: string) => void, color: boolean): Output {
  let steps = 0;
  const style = (name: Style, text: string) =>
    color ? `\u001b[${CODES[name]}m${text}\u001b[0m` : text;
  return {
    step(title) {
      steps += 1;
      write(`\n${style('bold', `${steps}. ${title}`)}\n`);
    },
    line(text = '') {
      write(text === '' ? '\n' : `   ${text}\n`);
    },
    ok(text) {
      write(`   ${style('green', '✔')} ${text}\n`);
    },
    fail(text) {
      write(`   ${style('red', '✘')} ${text}\n`);
    },
    style,
  };
}

/** Formats rows as a fixed-width table; the first row is the header. */
export function formatTable(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]?.map((_, column) =>
    Math.max(...rows.map((row) => row[column]?.length ?? 0)),
  );
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths?.[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}
