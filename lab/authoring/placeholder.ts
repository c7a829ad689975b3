// The word that marks a piece of a scaffolded file still to write; verify lists every one left.
export const PLACEHOLDER = "PLACEHOLDER";

/** A piece still to write: `PLACEHOLDER: what it is`. */
export const todo = (what: string) => `${PLACEHOLDER}: ${what}`;
