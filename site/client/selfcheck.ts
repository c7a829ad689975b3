// The self-check, as a script of its own that a page loads the first time a learner checks a file. It
// holds the evidence schema (zod), the checks and the course data every verdict is judged against: more
// than half of what a page would otherwise load before it is interactive, and needed only then. The
// build bundles one per edition, with that edition's course data put in place of FORGE_COURSE.
import type { CourseData } from "../../lab/evidence/course-data.js";
import { checkVerification } from "../../lab/evidence/selfcheck.js";
import { type PackedCourse, unpackCourse } from "./course.js";
import type { SelfCheck } from "./selfcheck-api.js";

declare const FORGE_COURSE: PackedCourse;

const course: CourseData = unpackCourse(FORGE_COURSE);
const check: SelfCheck = (text, words) => checkVerification(text, course, words);
window.forgeSelfCheck = check;
