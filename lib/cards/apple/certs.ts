// The Pass Type ID certificate, its key and Apple's WWDR intermediate, read from the PEM files
// named by the settings. Kept apart from the pass so the push sender needs nothing else.
import { readFileSync, statSync } from "node:fs";
import type { AppleWalletConfig } from "../../config";

// The certificate files change only when an admin replaces them: read them once per version.
const certCache = new Map<string, { mtimeMs: number; data: Buffer }>();
function readCached(path: string): Buffer {
  const mtimeMs = statSync(path).mtimeMs;
  const hit = certCache.get(path);
  if (hit && hit.mtimeMs === mtimeMs) return hit.data;
  const data = readFileSync(path);
  certCache.set(path, { mtimeMs, data });
  return data;
}

export function appleCertificates(apple: AppleWalletConfig) {
  return {
    wwdr: readCached(apple.wwdrFile),
    signerCert: readCached(apple.certFile),
    signerKey: readCached(apple.keyFile),
    signerKeyPassphrase: apple.keyPassphrase,
  };
}
