import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { RollbackJournal } from "forge/tools/rollback";
import { temporaryFolder, writeTree } from "../../lab/testing.js";

// Transfer: a music-creation session. An assistant edits a song's files; when the session is
// abandoned, the journal puts the project back as it was before the session began.
function songProject(): string {
  const project = temporaryFolder();
  writeTree(project, {
    "tracks/lyrics.txt": "track-v1",
    "tracks/credits.txt": "words and music: R. Vale",
  });
  return project;
}

it("restores tracks/lyrics.txt to track-v1 after the session wrote track-v2", async () => {
  const project = songProject();
  const lyrics = join(project, "tracks/lyrics.txt");
  const journal = new RollbackJournal();
  await journal.capture(lyrics);
  writeFileSync(lyrics, "track-v2");
  expect(readFileSync(lyrics, "utf8"), "tracks/lyrics.txt after the session wrote it").toBe("track-v2");

  await journal.rollback();

  expect(readFileSync(lyrics, "utf8"), "tracks/lyrics.txt after rollback").toBe("track-v1");
  expect(readFileSync(join(project, "tracks/credits.txt"), "utf8"), "tracks/credits.txt, never captured, after rollback").toBe(
    "words and music: R. Vale",
  );
});

it("removes tracks/bonus.txt, which the session created", async () => {
  const project = songProject();
  const lyrics = join(project, "tracks/lyrics.txt");
  const bonus = join(project, "tracks/bonus.txt");
  const journal = new RollbackJournal();
  await journal.capture(lyrics);
  await journal.capture(bonus);
  writeFileSync(lyrics, "track-v2");
  writeFileSync(bonus, "bonus-demo");

  await journal.rollback();

  expect(existsSync(bonus), "tracks/bonus.txt, created by the session, still exists after rollback").toBe(false);
  expect(readFileSync(lyrics, "utf8"), "tracks/lyrics.txt after rollback").toBe("track-v1");
  expect(journal.size, "journal.size after a rollback that restored everything").toBe(0);
});
