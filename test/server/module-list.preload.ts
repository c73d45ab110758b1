// Preloaded into the real server by test/server/lazy-start.test.ts (`bun --preload`): on SIGUSR2 it
// writes the paths of every module the process has loaded so far (Bun's `require.cache` holds ES
// modules too) to MODULE_LIST_FILE, so the test sees what start-up and each request loaded
// without the server carrying any debug route.
import { renameSync, writeFileSync } from "node:fs";

const file = process.env.MODULE_LIST_FILE;
if (file) {
  process.on("SIGUSR2", () => {
    // Written aside then renamed: the test never reads half a list.
    writeFileSync(`${file}.tmp`, JSON.stringify(Object.keys(require.cache)));
    renameSync(`${file}.tmp`, file);
  });
}
