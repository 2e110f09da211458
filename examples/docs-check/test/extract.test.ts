import { describe, expect, it } from 'vitest';
import { extractCodeBlocks } from '../src/extract';

describe('extractCodeBlocks', () => {
  it('finds fenced blocks with their language, meta and first code line', () => {
    const markdown = [
      '# Title',
      '',
      '```ts',
      'const a = 1;',
      '```',
      '',
      '```sh no-check',
      'pnpm demo',
      '```',
    ].join('\n');
    expect(extractCodeBlocks(markdown)).toEqual([
      { lang: 'ts', meta: '', code: 'const a = 1;', line: 4 },
      { lang: 'sh', meta: 'no-check', code: 'pnpm demo', line: 8 },
    ]);
  });

  it('closes a fence only with the same character and at least the same length', () => {
    const markdown = ['````md', '```ts', 'inner', '```', '````', '~~~ts', '```', '~~~'].join('\n');
    const blocks = extractCodeBlocks(markdown);
    expect(blocks.map((block) => [block.lang, block.code])).toEqual([
      ['md', '```ts\ninner\n```'],
      ['ts', '```'],
    ]);
  });

  it('removes the fence indentation inside list items and handles CRLF', () => {
    const markdown = '1. Step\n\n   ```ts\r\n   const x = 1;\r\n     nested();\r\n   ```\r\n';
    expect(extractCodeBlocks(markdown)).toEqual([
      { lang: 'ts', meta: '', code: 'const x = 1;\n  nested();', line: 4 },
    ]);
  });

  it('keeps an unclosed block to the end of the file instead of dropping it', () => {
    expect(extractCodeBlocks('```ts\nconst x = 1;')).toEqual([
      { lang: 'ts', meta: '', code: 'const x = 1;', line: 2 },
    ]);
  });

  it('ignores inline code spans that only look like fences', () => {
    expect(extractCodeBlocks('``` `inline` ```\ntext')).toEqual([]);
  });
});
