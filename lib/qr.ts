// The QR code of a member's card code (the referral code, SPEC "Member"), drawn by the `qrcode`
// package: inline SVG on the web card page, a PNG in the card email. The package loads with the
// first of them (lib/lazy).
import { lazy } from "./lazy";

const qrcode = lazy(async () => (await import("qrcode")).default);

/** Error correction M: a card scanned off a scratched phone screen still reads. */
const LEVEL = "M";

/** The QR code as an inline `<svg>` element. */
export async function qrSvg(code: string): Promise<string> {
  return (await qrcode()).toString(code, { type: "svg", margin: 1, errorCorrectionLevel: LEVEL });
}

/** The QR code as a PNG `width` pixels wide. */
export async function qrPng(code: string, width: number): Promise<Buffer> {
  return (await qrcode()).toBuffer(code, { type: "png", width, margin: 2, errorCorrectionLevel: LEVEL });
}
