// What a promise was refused with, awaited plainly. Tests use this rather than bun:test's
// `expect(promise).rejects` / `.resolves`: in Bun 1.4.5 such a matcher waits for its promise inside
// the setImmediate batch it was called from, and the immediates queued behind it in that batch wait
// for it (oven-sh/bun#39103). The app yields with setImmediate (db/sqlite.ts group commit,
// lib/audit's writer): a promise that needs one of those never settled, and the test hung until its
// timeout (docs/decisions.md, door21). test/dashboard/browser-waits.test.ts keeps the matchers out.

/** The error `promise` was refused with; fails the test when it was fulfilled. */
export async function refusalOf(promise: Promise<unknown>): Promise<unknown> {
  let value: unknown;
  try {
    value = await promise;
  } catch (err) {
    return err;
  }
  throw new Error(`expected the promise to be refused; it was fulfilled with ${String(JSON.stringify(value)).slice(0, 300)}`);
}
