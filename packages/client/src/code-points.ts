/**
 * Length of a string in Unicode code points, the way the service counts "characters"
 * (an emoji is one character, not two UTF-16 units). Internal.
 */
export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}
