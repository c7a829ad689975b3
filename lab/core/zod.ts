// Building blocks shared by the lab's zod/mini schemas, and the one place their messages are set up.
// zod/mini loads only what a schema uses, which keeps `npm test` quick; English messages come from the
// English locale alone (the `zod/locales` index would load every language). The site's browser code
// gets the same set-up through the verification schema, which imports this module.
import * as z from "zod/mini";
import en from "zod/v4/locales/en.js";

z.config(en());

/** A string that is not blank once trimmed; the parsed value is trimmed. */
export const text = () => z.string().check(z.trim(), z.minLength(1, "must not be empty"));
