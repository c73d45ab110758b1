// Logos the logo tests send (lib/clubs/logo, lib/clubs/logo-image).

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
