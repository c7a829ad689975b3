// Building blocks shared by the lab's zod/mini schemas. zod/mini loads only what a schema uses (the
// classic API loads every locale), which keeps `npm test` quick; English messages are set once here.
import * as z from "zod/mini";
import { en } from "zod/locales";

z.config(en());

/** A string that is not blank once trimmed; the parsed value is trimmed. */
export const text = () => z.string().check(z.trim(), z.minLength(1, "must not be empty"));
