// How large a verification file may be before it is refused unread: one home for the CLI's class report,
// the self-check and the site's page, which refuses a dropped file before it loads the self-check at all.

/** A real verification file is a few kilobytes; anything this large is refused before it is parsed. */
export const MAX_FILE_BYTES = 1024 * 1024;

/** The megabytes a size is shown as when a file is refused for it. */
export const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
