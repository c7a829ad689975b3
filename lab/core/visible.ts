// Text a person reads in a log, made to show every character it holds. Control characters, bidi
// controls, other invisible format characters, lone surrogates and the line and paragraph separators
// look like nothing (or rearrange what is around them), so `cat a\u202eb` and `cat ab` would print
// alike and a log would turn binary. Each becomes a `\u…` escape; tabs and line feeds stay, since they
// are the layout of a multi-line message.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/gu;

const escaped = (char: string): string => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`;

/** `text` with every character a terminal would not show as itself written as a `\uXXXX` escape. */
export function visible(text: string): string {
  return text.replace(INVISIBLE, (char) => (char === "\t" || char === "\n" ? char : escaped(char)));
}

/** A colour or style code (select graphic rendition), as vitest's colours write them: ESC [ digits m. */
const COLOUR_OR_INVISIBLE = /\u001b\[[0-9;]*m|[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/gu;

/**
 * `visible`, except that colour codes stay. Only for text whose every escape character is known to be a
 * colour the text's own printer added, never one of the values it shows.
 */
export function visibleKeepingColours(text: string): string {
  return text.replace(COLOUR_OR_INVISIBLE, (match) => (match.length > 1 || match === "\t" || match === "\n" ? match : escaped(match)));
}
