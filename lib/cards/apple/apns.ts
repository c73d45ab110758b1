// Telling a phone that its Apple Wallet pass changed: an APNs push over HTTP/2, authenticated by
// the Pass Type ID certificate (TLS client certificate), topic = the pass type identifier, and
// an empty JSON payload; the phone then asks the web service for what changed. One job per
// push token (lib/cards/apple/index fans them out), retried with back-off by lib/jobs.
import { readFileSync } from "node:fs";
import type { ClientHttp2Session } from "node:http2";
import { and, eq } from "drizzle-orm";
import { appleRegistrations, voidedPassDevices } from "../../../db/schema";
import type { AppleWalletConfig } from "../../config";
import { completeJobIn, type JobKind, PermanentFailure, TemporaryFailure } from "../../jobs";
import { lazy } from "../../lazy";
import { APPLE_PUSH } from "../../passes";
import { appleCertificates } from "./certs";
import { refreshHasWallet } from "./registrations";

export { APPLE_PUSH };

/** How long one push may take before it counts as a network failure (retried). */
const PUSH_TIMEOUT_MS = 15_000;
/** An idle connection to APNs is closed after this long (Apple prefers long-lived connections). */
const IDLE_MS = 60_000;

export type ApnsAnswer = { status: number; reason: string | null };

type Held = { session: ClientHttp2Session; inFlight: number };
const sessions = new Map<string, Held>();

/** Node's HTTP/2 client (and TLS's root certificates) load with the first push. */
const net = lazy(async () => ({ http2: await import("node:http2"), tls: await import("node:tls") }));
type Net = Awaited<ReturnType<typeof net>>;

/** One HTTP/2 connection per APNs address and certificate, reused across pushes. */
function connection(apple: AppleWalletConfig, { http2, tls }: Net): Held {
  const key = [apple.apnsUrl, apple.certFile, apple.keyFile, apple.apnsCaFile ?? ""].join("\n");
  const held = sessions.get(key);
  if (held && !held.session.closed && !held.session.destroyed) return held;
  const certs = appleCertificates(apple);
  const session = http2.connect(apple.apnsUrl, {
    cert: certs.signerCert,
    key: certs.signerKey,
    passphrase: apple.keyPassphrase,
    // An extra CA is trusted besides the usual ones, never instead of them.
    ...(apple.apnsCaFile ? { ca: [...tls.rootCertificates, readFileSync(apple.apnsCaFile, "utf8")] } : {}),
  });
  const fresh: Held = { session, inFlight: 0 };
  const drop = () => {
    if (sessions.get(key) === fresh) sessions.delete(key);
  };
  session.on("error", drop);
  session.on("close", drop);
  session.on("goaway", () => {
    drop();
    session.close();
  });
  session.setTimeout(IDLE_MS, () => {
    drop();
    session.close();
  });
  // An idle connection must not keep the process alive (tests, CLI).
  session.unref();
  sessions.set(key, fresh);
  return fresh;
}

/** Closes every held APNs connection (shutdown, tests). */
export function closeApnsConnections(): void {
  for (const { session } of sessions.values()) session.close();
  sessions.clear();
}

/** Sends the "pass changed" push to `pushToken`; resolves with APNs' status and reason, rejects on network failure. */
export async function sendApnsPush(apple: AppleWalletConfig, pushToken: string): Promise<ApnsAnswer> {
  const modules = await net();
  return new Promise((resolve, reject) => {
    let held: Held;
    try {
      held = connection(apple, modules);
    } catch (err) {
      reject(err);
      return;
    }
    const { session } = held;
    held.inFlight++;
    session.ref();
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      held.inFlight--;
      if (held.inFlight === 0) session.unref();
      fn();
    };
    const onSessionError = (err: Error) => finish(() => reject(err));
    session.once("error", onSessionError);
    const req = session.request({
      ":method": "POST",
      ":path": `/3/device/${encodeURIComponent(pushToken)}`,
      "apns-topic": apple.passTypeId,
      // A pass update shows nothing by itself: a background push, which APNs wants at priority 5.
      "apns-push-type": "background",
      "apns-priority": "5",
      "content-type": "application/json",
    });
    let status = 0;
    let body = "";
    req.setEncoding("utf8");
    req.setTimeout(PUSH_TIMEOUT_MS, () => {
      req.close(modules.http2.constants.NGHTTP2_CANCEL);
      finish(() => reject(new Error(`no answer within ${PUSH_TIMEOUT_MS / 1000} s`)));
    });
    req.on("response", (headers) => {
      status = Number(headers[":status"]);
    });
    req.on("data", (chunk: string) => {
      if (body.length < 4096) body += chunk;
    });
    req.on("end", () => {
      session.off("error", onSessionError);
      let reason: string | null = null;
      try {
        reason = body ? (JSON.parse(body).reason ?? null) : null;
      } catch {}
      finish(() => resolve({ status, reason }));
    });
    req.on("error", (err) => {
      session.off("error", onSessionError);
      finish(() => reject(err));
    });
    req.end("{}");
  });
}

/** One push to one device (lib/cards/jobs lists it); a 410 forgets the device's registrations. */
export const applePushJob: JobKind = {
  async run(db, job, env) {
    const apple = env.config.wallets.apple;
    if (!apple) throw new PermanentFailure("Apple Wallet is not configured");
    const pushToken = String(job.payload.push_token ?? "");
    let answer: ApnsAnswer;
    try {
      answer = await sendApnsPush(apple, pushToken);
    } catch (err) {
      throw new TemporaryFailure(`APNs unreachable: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300));
    }
    const outcome = `APNs ${answer.status}${answer.reason ? ` ${answer.reason}` : ""}`;
    if (answer.status === 200) return outcome;
    if (answer.status === 410) {
      // The device no longer has the pass (or the app): forget it, as Apple asks.
      const done = `${outcome}: device registrations removed`;
      await db.tx(async (t) => {
        const removed = await t
          .delete(appleRegistrations)
          .where(and(eq(appleRegistrations.club_id, job.club_id), eq(appleRegistrations.push_token, pushToken)))
          .returning({ member_id: appleRegistrations.member_id });
        await refreshHasWallet(
          t,
          removed.map((r) => r.member_id),
        );
        // A voided pass's device too: it has nothing more to be told.
        await t.delete(voidedPassDevices).where(eq(voidedPassDevices.push_token, pushToken));
        await completeJobIn(t, job, done);
      });
      return done;
    }
    if (answer.status === 429 || answer.status >= 500) throw new TemporaryFailure(outcome);
    // 400 (bad request or token), 403 (certificate), 404, 405, 413: sending again changes nothing.
    throw new PermanentFailure(outcome);
  },
  // One device (push token of the pass type) gets its pushes one after the other, in order: two
  // pushes to one phone never race; pushes to different phones go out at once.
  orderKey: (job) => `${APPLE_PUSH}:${String(job.payload.pass_type_id ?? "")}:${String(job.payload.push_token ?? "")}`,
};
