// The child process that draws a cleaned SVG logo (lib/clubs/logo-image `drawSvg`): the SVG on
// stdin, the master PNG (its longest side SVG_DRAWN_AT pixels) on stdout. librsvg draws in
// libuv's thread pool, where nothing can stop it: a few hundred bytes of filters or nested
// `<use>` keep a core busy for many seconds. In a process of its own the server can kill it
// when its time is up (docs/decisions.md, "logo27"). Its exit code says why it drew nothing.
import sharp from "sharp";
import { DRAW_EXIT, LOGO_MAX_PIXELS, SVG_DRAWN_AT } from "./logo-image";

// The limit is CPU time (all of this process's threads): a heavy logo on a busy host waits for
// cores without being refused, while a bomb is stopped after the same work wherever it runs.
// The drawing runs in libuv's pool, so this thread is free to look. The server's own wall-clock
// kill (SVG_DRAW_WALL_FACTOR times the limit) stays behind it, should this loop not get to run.
const limitMs = Number(process.argv[2]) || 5000;
const spentMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
setInterval(() => {
  if (spentMs() > limitMs) process.exit(DRAW_EXIT.timedOut);
}, 50);

sharp.cache(false);
sharp.concurrency(1);

async function draw(input: Buffer): Promise<Buffer> {
  // Drawn so that its longest side is SVG_DRAWN_AT pixels, whatever size it declares.
  const declared = await sharp(input, { limitInputPixels: LOGO_MAX_PIXELS }).metadata();
  if (declared.format !== "svg") throw new Error("not an SVG");
  const longest = Math.max(declared.width ?? 0, declared.height ?? 0);
  const density = longest > 0 ? Math.min(Math.max((72 * SVG_DRAWN_AT) / longest, 1), 100_000) : 72;
  return sharp(input, { limitInputPixels: LOGO_MAX_PIXELS, density })
    .resize(SVG_DRAWN_AT, SVG_DRAWN_AT, { fit: "inside", withoutEnlargement: true })
    .ensureAlpha()
    .png()
    .toBuffer();
}

try {
  const png = await draw(Buffer.from(await Bun.stdin.arrayBuffer()));
  await Bun.write(Bun.stdout, png);
  process.exit(DRAW_EXIT.drawn);
} catch (err) {
  process.exit(/pixel limit/i.test(err instanceof Error ? err.message : "") ? DRAW_EXIT.tooManyPixels : DRAW_EXIT.notAnImage);
}
