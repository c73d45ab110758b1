// The plain logo of a club that has none: Google requires a logo on a loyalty class (an image at
// a public address), so we serve a square in the club's secondary colour, which Google shows as
// a disc beside the club's name. GET /c/logo/<club_id> (public: a colour is no secret).
import { deflateSync } from "node:zlib";
import { eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { clubs } from "../../../db/schema";

/** Google's recommended logo size. */
const SIZE = 660;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A SIZE x SIZE PNG of one colour (#RRGGBB). */
export function solidPng(hex: string): Uint8Array<ArrayBuffer> {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  const row = Buffer.alloc(1 + SIZE * 3);
  for (let x = 0; x < SIZE; x++) row.set([r, g, b], 1 + x * 3);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(SIZE, 0);
  ihdr.writeUInt32BE(SIZE, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.concat(Array.from({ length: SIZE }, () => row)))),
    chunk("IEND", new Uint8Array()),
  ]);
}

const byColour = new Map<string, Uint8Array<ArrayBuffer>>();

/** The plain logo of club `clubId`, or null when there is no such club. */
export async function placeholderLogo(db: Db, clubId: string): Promise<Uint8Array<ArrayBuffer> | null> {
  const [row] = (await db.read.select().from(clubs).where(eq(clubs.id, clubId)).limit(1)) as Record<string, unknown>[];
  if (!row) return null;
  const colour = typeof row.secondary_color === "string" && /^#[0-9A-Fa-f]{6}$/.test(row.secondary_color) ? row.secondary_color.toUpperCase() : "#F59E0B";
  let png = byColour.get(colour);
  if (!png) {
    png = solidPng(colour);
    byColour.set(colour, png);
  }
  return png;
}
