// A real SMTP server on a local port (the `smtp-server` package) that keeps what it receives, and
// readers for the raw messages: headers (RFC 2047 words decoded), MIME parts and their bodies
// (base64, quoted-printable). For the tests of every mail the product sends.
import { afterAll, beforeAll } from "bun:test";
import { SMTPServer } from "smtp-server";
import { runDueJobs } from "../lib/jobs";
import { closeMailConnections } from "../lib/mail";
import { JOB_KINDS } from "../server/jobs";
import { setup, type TestEnv } from "./helpers";

export type Received = { from: string; to: string[]; raw: string };

export type TestSmtp = {
  inbox: Received[];
  /** While true, every recipient is refused (550). */
  refuse: boolean;
  /** Per address (lower-cased), the SMTP codes its next deliveries are refused with, in turn (451: try later; 550: never). */
  refusals: Map<string, number[]>;
  url: string;
  /** SMTP connections opened to it so far. */
  connections: number;
  close(): Promise<void>;
};

export async function startSmtp(): Promise<TestSmtp> {
  const state = { inbox: [] as Received[], refuse: false, refusals: new Map<string, number[]>(), connections: 0 };
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onConnect(_session, cb) {
      state.connections++;
      cb();
    },
    onRcptTo(address, _session, cb) {
      if (state.refuse) return cb(Object.assign(new Error("mailbox unavailable"), { responseCode: 550 }));
      const code = state.refusals.get(address.address.toLowerCase())?.shift();
      if (code) return cb(Object.assign(new Error(code >= 500 ? "mailbox unavailable" : "try again later"), { responseCode: code }));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        state.inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        cb();
      });
    },
  });
  // A client that goes away mid-session (a server killed with SIGKILL while it sends) resets its
  // connection; a real mail server notes it and serves the others. Unheard, the event would throw.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  return Object.assign(state, {
    url: `smtp://127.0.0.1:${port}`,
    // The product keeps its SMTP connections open a while for the next message: closed first, so
    // that the server's close does not wait for them.
    close: () => {
      closeMailConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** Decodes RFC 2047 words (subject) and quoted-printable bodies well enough to read them. */
export function decodeWords(s: string): string {
  return s.replace(/=\?UTF-8\?([QB])\?([^?]*)\?=\s*/gi, (_, enc: string, text: string) =>
    enc.toUpperCase() === "B" ? Buffer.from(text, "base64").toString("utf8") : qp(text.replace(/_/g, " ")),
  );
}
export function qp(s: string): string {
  const bytes: number[] = [];
  const src = s.replace(/=\r?\n/g, "");
  for (let i = 0; i < src.length; i++) {
    if (src[i] === "=" && /^[0-9A-F]{2}$/i.test(src.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(src.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(src[i], "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}
export function parts(raw: string) {
  const boundaries = [...raw.matchAll(/boundary="?([^";\r\n]+)"?/g)].map((m) => m[1]);
  const out: { headers: string; body: string }[] = [];
  for (const b of boundaries) {
    for (const chunk of raw.split(`--${b}`).slice(1)) {
      const [headers, ...rest] = chunk.split(/\r?\n\r?\n/);
      const body = rest.join("\n\n");
      if (/content-type:\s*(text|image)\//i.test(headers)) out.push({ headers, body: body.replace(/\r?\n--$/, "").trim() });
    }
  }
  return out;
}
export function header(raw: string, name: string): string {
  const m = raw.match(new RegExp(`^${name}:\\s*((?:.*)(?:\\r?\\n[ \\t].*)*)`, "im"));
  return m ? decodeWords(m[1].replace(/\r?\n[ \t]/g, " ")) : "";
}
export function bodyOf(p: { headers: string; body: string }): string {
  if (/transfer-encoding:\s*base64/i.test(p.headers)) return Buffer.from(p.body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (/transfer-encoding:\s*quoted-printable/i.test(p.headers)) return qp(p.body);
  return p.body;
}
/** The text/plain part of a message, decoded. */
export function textOf(raw: string): string {
  const part = parts(raw).find((p) => /text\/plain/i.test(p.headers));
  return part ? bodyOf(part) : "";
}

/**
 * A test file's env whose mail goes to a local SMTP server: both started before its tests, closed
 * after (read `box.env`, `box.smtp` inside the tests). `deliver()` runs the queued jobs (the mails)
 * and hands back what the server received meanwhile.
 */
export function mailedEnv(vars: Record<string, string> = {}) {
  const box = {} as { env: TestEnv; smtp: TestSmtp; deliver(): Promise<Received[]> };
  beforeAll(async () => {
    box.smtp = await startSmtp();
    box.env = await setup({ SMTP_URL: box.smtp.url, ...vars });
  });
  afterAll(async () => {
    await box.env.close();
    await box.smtp.close();
  });
  box.deliver = async () => {
    const before = box.smtp.inbox.length;
    await runDueJobs(box.env.db, { kinds: JOB_KINDS, config: box.env.config });
    return box.smtp.inbox.slice(before);
  };
  return box;
}
