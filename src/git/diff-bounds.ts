/** How long a diff the hub hands out may be, and how one is cut. */

/** The most of a diff Session.diff returns, in characters; past it the diff is cut at a line. */
export const maxDiffChars = 1_000_000;

/** What ends a diff cut at `max` characters. */
export function cutNote(max: number): string {
  return `[diff cut at ${max} characters: what follows is not shown]`;
}

/** The diff cut at the last line break within `max` characters, and a line saying so. Pure. */
export function boundDiff(text: string, max: number, cut: boolean): string {
  if (!cut && text.length <= max) return text;
  const end = text.lastIndexOf('\n', max);
  return `${text.slice(0, end < 0 ? 0 : end + 1)}${cutNote(max)}`;
}
