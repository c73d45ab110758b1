// lib/lazy: what loads on first use (the dashboard, the job kinds' handlers, the heavy packages)
// loads once, however many callers ask while it loads; a load that failed is tried again.
import { describe, expect, it } from "bun:test";
import { lazy } from "../../lib/lazy";
import { refusalOf } from "../refusal";

describe("lazy", () => {
  it("loads once for callers that ask together, and answers each of them the same", async () => {
    let loads = 0;
    const load = lazy(async () => {
      loads++;
      await Bun.sleep(5);
      return { made: loads };
    });
    const answers = await Promise.all([load(), load(), load()]);
    expect(loads).toBe(1);
    expect(answers[0]).toBe(answers[1]);
    expect(answers[2]).toBe(answers[0]);
    expect(await load()).toBe(answers[0]);
    expect(loads).toBe(1);
  });

  it("tries a failed load again on the next call", async () => {
    let loads = 0;
    const load = lazy(async () => {
      loads++;
      if (loads === 1) throw new Error("not yet");
      return "loaded";
    });
    expect(await refusalOf(load())).toMatchObject({ message: expect.stringContaining("not yet") });
    expect(await load()).toBe("loaded");
    expect(loads).toBe(2);
  });
});
