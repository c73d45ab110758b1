// A long tool's progress reaches the client (notifications/progress) or the task's row at most
// once a second: an import reports every 50 lines, so 100,000 lines would be 2,000 messages.
import { expect, it } from "bun:test";
import { throttledProgress } from "../../lib/context";

it("reports the first call, then at most one a second, and always the last (done = total)", () => {
  let clock = 0;
  const seen: [number, number][] = [];
  const progress = throttledProgress(
    (done, total) => seen.push([done, total]),
    1_000,
    () => clock,
  );
  // An import of 1,000 lines reporting every 50, 200 ms apart: 4 seconds in all.
  for (let done = 50; done <= 1_000; done += 50) {
    progress(done, 1_000);
    clock += 200;
  }
  expect(seen).toEqual([
    [50, 1_000],
    [300, 1_000],
    [550, 1_000],
    [800, 1_000],
    [1_000, 1_000],
  ]);
  // The last is never held back, however soon it follows.
  const quick: number[] = [];
  const p = throttledProgress(
    (done) => quick.push(done),
    1_000,
    () => 5,
  );
  p(1, 3);
  p(2, 3);
  p(3, 3);
  expect(quick).toEqual([1, 3]);
});
