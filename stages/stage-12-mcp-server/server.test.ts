import { expect, it } from "vitest";
import * as module from "forge/tools/server";

// PLACEHOLDER: the stage's tests, each named for the property it proves.
it("PLACEHOLDER: name this test for the property it proves", () => {
  expect(Object.keys(module), "what forge/tools/server exports").not.toEqual([]);
});
