// Oversized bodies through the real server (issue 18 item 8): Bun's own body limit used to cut a
// body past four times MAX_BODY_BYTES with an empty 413 (or a reset) before the app saw it, so no
// JSON answer and no audit row. Now every body past the limit, announced by Content-Length or
// streamed without one, gets the app's JSON 413, and a key's request its audit row.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ServerProcess, startServer } from "../reliability/server-process";

const dir = mkdtempSync(join(tmpdir(), "club-body-"));
let server: ServerProcess;
beforeAll(async () => {
  server = await startServer(join(dir, "club.db"), { LOG_LEVEL: "silent" });
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const FIVE_MB = 5 * 1024 * 1024;

function send(path: string, size: number, streamed: boolean) {
  const bytes = new Uint8Array(size).fill(0x20);
  const body = streamed
    ? new ReadableStream({
        start(c) {
          for (let i = 0; i < size; i += 64 * 1024) c.enqueue(bytes.subarray(i, i + 64 * 1024));
          c.close();
        },
      })
    : bytes;
  return fetch(`${server.base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
    body,
    duplex: "half",
  } as RequestInit);
}

/** The audit rows of POSTs to `path` answered 413. */
async function refusals(path: string): Promise<number> {
  const log = await fetch(`${server.base}/api/clubs/${server.clubId}/audit-log?path=${encodeURIComponent(path)}`, {
    headers: { authorization: `Bearer ${server.key}` },
  });
  const rows = (await log.json()).items as { status: number; method: string }[];
  return rows.filter((r) => r.status === 413 && r.method === "POST").length;
}

describe("a 5 MB body", () => {
  for (const streamed of [false, true]) {
    it(`${streamed ? "streamed without Content-Length" : "with Content-Length"}: the JSON 413 and an audit row`, async () => {
      const path = `/api/clubs/${server.clubId}/members/manual`;
      const before = await refusals(path);
      const res = await send(path, FIVE_MB, streamed);
      expect(res.status).toBe(413);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(await res.json()).toEqual({ detail: expect.stringContaining("1048576"), code: "PAYLOAD_TOO_LARGE", request_id: expect.any(String) });
      expect(await refusals(path)).toBe(before + 1);
    });
  }
});
