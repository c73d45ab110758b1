// Reading a QR code from a rendered page, as a person's phone would.
import jsQR from "jsqr";
import sharp from "sharp";

/**
 * The QR code read from the picture `png`: null when none decodes. jsQR sometimes "finds" a code
 * holding no data in a page of text (cozmo/jsQR#90; about 1 in 15 of our no-IBAN invoices, by the
 * member's random email): no phone shows such a code, and none of ours is empty, so it counts as none.
 */
export async function decodeQr(png: string): Promise<string | null> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const code = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
  return code && code.binaryData.length > 0 ? code.data : null;
}
