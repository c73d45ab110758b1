// Logos the logo tests send (lib/clubs/logo, lib/clubs/logo-image).
import { readdirSync, readFileSync } from "node:fs";

/** An SVG carrying every way out of the drawing that lib/clubs/logo-image removes. */
export const HOSTILE_SVG = `<?xml version="1.0"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [<!ENTITY name "Club">]>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:xi="http://www.w3.org/2001/XInclude" width="300" height="100" onload="alert(1)">
  <style>@import url(https://evil.example/x.css); .a { fill: url(https://evil.example/p.png) } .b { fill: url(#g) }</style>
  <script>alert(document.cookie)</script>
  <SCRIPT type="text/javascript">alert(2)</SCRIPT>
  <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>
  <linearGradient id="g"><stop offset="0" stop-color="#F59E0B"/></linearGradient>
  <rect class="a" width="300" height="100" fill="#1D4ED8" OnClick="alert(3)" style="stroke: url('https://evil.example/s')"/>
  <image xlink:href="file:///etc/hostname" width="10" height="10"/>
  <image href="https://evil.example/tracker.png" width="10" height="10"/>
  <xi:include href="/etc/passwd" parse="text"/>
  <a href="javascript:alert(4)"><text x="10" y="60" font-size="30">&name;</text></a>
  <use href="#g"/>
  <circle r="5" fill="url(https://evil.example/fill)" filter="url(http://evil.example/f)"/>
  <set attributeName="href" to="https://evil.example/"/>
</svg>`;

/** 253 bytes of filters that librsvg draws for about 15 s of CPU (the fuzzer's, issue logo27): the bound of lib/clubs/logo-image `drawSvg`. */
export const FILTER_BOMB_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="6000" height="6000"><filter id="f"><feMorphology radius="3000"/><feMorphology radius="3000" operator="dilate"/><feMorphology radius="3000"/></filter><rect width="6000" height="6000" filter="url(#f)"/></svg>`;

/** The processes now drawing an SVG logo (lib/clubs/draw-svg), read from /proc: none should outlive its upload. */
export function drawingChildren(): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
      if (cmd.includes("draw-svg.ts") && isOurs(pid)) found.push(`${pid} ${cmd}`);
    } catch {
      // Gone since the listing.
    }
  }
  return found;
}

/** A child of this test process (other worktrees' tests may draw at the same time). */
const isOurs = (pid: string) => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ")[1] === String(process.pid);
