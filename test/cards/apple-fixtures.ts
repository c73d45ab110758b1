// Apple Wallet test fixtures: a throw-away PKI made with openssl (a root CA, a "WWDR"
// intermediate, a Pass Type ID certificate signed by it, and a TLS certificate for a local
// stand-in for APNs), the settings that point the app at them, and a small reader of `.pkpass`
// files (zip) and of what a device sends.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { X509Certificate } from "node:crypto";
import { createSecureServer, type ServerHttp2Stream } from "node:http2";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";

export const PASS_TYPE_ID = "pass.org.example.club-test";
export const TEAM_ID = "TEAMID1234";

async function openssl(dir: string, args: string[], input?: string): Promise<string> {
  const proc = Bun.spawn(["openssl", ...args], { cwd: dir, stdin: input ? new TextEncoder().encode(input) : "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`openssl ${args.join(" ")} failed: ${err}`);
  return out;
}

export type ApplePki = {
  dir: string;
  caFile: string;
  wwdrFile: string;
  certFile: string;
  keyFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  /** SHA-256 fingerprint of the pass certificate, as node:tls reports it. */
  passCertFingerprint: string;
  env: (apnsUrl?: string) => Record<string, string>;
  openssl: (args: string[]) => Promise<string>;
  close: () => void;
};

/** Makes the CA, WWDR, pass and APNs-server certificates in a temp folder. */
export async function makeApplePki(opts: { passphrase?: string } = {}): Promise<ApplePki> {
  const dir = mkdtempSync(join(tmpdir(), "apple-pki-"));
  writeFileSync(join(dir, "ca.ext"), "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n");
  writeFileSync(join(dir, "leaf.ext"), "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n");
  writeFileSync(
    join(dir, "server.ext"),
    "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n",
  );
  const o = (args: string[]) => openssl(dir, args);
  await o([
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-days",
    "2",
    "-subj",
    "/CN=Test Root CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  await o(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "wwdr.key", "-out", "wwdr.csr", "-subj", "/CN=Test WWDR Intermediate"]);
  await o(["x509", "-req", "-in", "wwdr.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "wwdr.pem", "-days", "2", "-extfile", "ca.ext"]);
  const keyArgs = opts.passphrase ? ["-passout", `pass:${opts.passphrase}`] : ["-nodes"];
  await o([
    "req",
    "-newkey",
    "rsa:2048",
    ...keyArgs,
    "-keyout",
    "pass.key",
    "-out",
    "pass.csr",
    "-subj",
    `/UID=${PASS_TYPE_ID}/CN=Pass Type ID: ${PASS_TYPE_ID}/OU=${TEAM_ID}/O=Club Test`,
  ]);
  await o([
    "x509",
    "-req",
    "-in",
    "pass.csr",
    "-CA",
    "wwdr.pem",
    "-CAkey",
    "wwdr.key",
    "-CAcreateserial",
    "-out",
    "pass.pem",
    "-days",
    "2",
    "-extfile",
    "leaf.ext",
  ]);
  await o(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"]);
  await o([
    "x509",
    "-req",
    "-in",
    "server.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "server.pem",
    "-days",
    "2",
    "-extfile",
    "server.ext",
  ]);
  const f = (name: string) => join(dir, name);
  const passCertFingerprint = new X509Certificate(readFileSync(f("pass.pem"))).fingerprint256;
  return {
    dir,
    caFile: f("ca.pem"),
    wwdrFile: f("wwdr.pem"),
    certFile: f("pass.pem"),
    keyFile: f("pass.key"),
    serverCertFile: f("server.pem"),
    serverKeyFile: f("server.key"),
    passCertFingerprint,
    env: (apnsUrl?: string) => ({
      APPLE_PASS_TYPE_ID: PASS_TYPE_ID,
      APPLE_TEAM_ID: TEAM_ID,
      APPLE_PASS_CERT: f("pass.pem"),
      APPLE_PASS_KEY: f("pass.key"),
      APPLE_WWDR_CERT: f("wwdr.pem"),
      ...(opts.passphrase ? { APPLE_PASS_KEY_PASSPHRASE: opts.passphrase } : {}),
      ...(apnsUrl ? { APNS_URL: apnsUrl, APNS_CA_FILE: f("ca.pem") } : {}),
    }),
    openssl: o,
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The files of a `.pkpass` (a zip), by name. */
export function unzipPass(bytes: Uint8Array): Record<string, Uint8Array> {
  return unzipSync(bytes);
}

export const readJson = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes));

export type ApnsRequest = { path: string; headers: Record<string, string>; body: string; clientFingerprint: string | null };

/**
 * A local HTTP/2 TLS server standing in for APNs: it asks for the client's certificate, records
 * each request (with that certificate's fingerprint) and answers with `reply` (200 by default).
 */
export async function startFakeApns(pki: ApplePki) {
  const received: ApnsRequest[] = [];
  let reply: (req: ApnsRequest) => { status: number; reason?: string } = () => ({ status: 200 });
  const server = createSecureServer({
    key: readFileSync(pki.serverKeyFile),
    cert: readFileSync(pki.serverCertFile),
    requestCert: true,
    // The test checks the certificate itself (it is signed by the "WWDR", not by this CA).
    rejectUnauthorized: false,
  });
  server.on("stream", (stream: ServerHttp2Stream, headers) => {
    const socket = stream.session?.socket as unknown as { getPeerCertificate?: () => { fingerprint256?: string } } | undefined;
    const peer = socket?.getPeerCertificate?.();
    let body = "";
    stream.setEncoding("utf8");
    stream.on("data", (c: string) => {
      body += c;
    });
    stream.on("end", () => {
      const req: ApnsRequest = {
        path: String(headers[":path"]),
        headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])),
        body,
        clientFingerprint: peer?.fingerprint256 ?? null,
      };
      received.push(req);
      const answer = reply(req);
      stream.respond({ ":status": answer.status, "apns-id": crypto.randomUUID(), ...(answer.reason ? { "content-type": "application/json" } : {}) });
      stream.end(answer.reason ? JSON.stringify({ reason: answer.reason }) : "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `https://localhost:${port}`,
    received,
    reply(fn: typeof reply) {
      reply = fn;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
