// The door's scanner (dashboard/pages/door.tsx): reads QR codes with the camera (the browser's
// BarcodeDetector, else the bundled jsQR, loaded only then), takes typed codes, posts each scan to
// the page for a JSON verdict, and shows it big. Offline, scans wait in localStorage with their
// nonce and go as soon as the network is back (a resend with the same nonce checks in once).
(() => {
  const root = document.getElementById("door");
  if (!root) return;
  const form = root.querySelector("form.door-code");
  const input = form.querySelector("input[name=code]");
  const csrf = form.querySelector("input[name=_csrf]").value;
  const verdict = document.getElementById("verdict");
  const net = document.getElementById("net");
  const counts = document.getElementById("door-counts");
  const recent = document.getElementById("recent");
  const video = document.getElementById("camera");
  const toggle = document.getElementById("camera-toggle");
  const note = document.getElementById("camera-note");
  const t = JSON.parse(root.dataset.texts);
  const fill = (text, params) => text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
  // The form of a counted text for `n` in the page's language, as lib/i18n/dashboard `plural` chooses it.
  const rules = new Intl.PluralRules(document.documentElement.lang);
  const plural = (forms, n) => fill(forms[rules.select(n)] ?? forms.other, { n });
  const storeKey = `door-queue:${root.dataset.event}`;
  let queue = [];
  try {
    queue = JSON.parse(localStorage.getItem(storeKey) || "[]");
  } catch {
    queue = [];
  }
  const save = () => {
    try {
      localStorage.setItem(storeKey, JSON.stringify(queue));
    } catch {
      // Private mode: the queue lives as long as the page.
    }
  };
  // crypto.randomUUID exists only on https; a nonce only has to be unique per event.
  const nonce = () => (crypto.randomUUID ? crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`);
  // Times on the club's wall clock, its zone named (the phone at the door may be set to another).
  const zone = root.dataset.zone;
  const clock = { hour: "2-digit", minute: "2-digit", timeZone: zone };
  const time = (iso) => `${new Date(iso).toLocaleTimeString(document.documentElement.lang, clock)} (${zone})`;

  function show(kind, title, name, detail) {
    verdict.className = `verdict verdict-${kind}`;
    verdict.querySelector(".v-title").textContent = title;
    verdict.querySelector(".v-name").textContent = name;
    verdict.querySelector(".v-detail").textContent = detail;
    if (navigator.vibrate) navigator.vibrate(kind === "valid" ? 80 : kind === "idle" || kind === "offline" ? 0 : [80, 60, 80, 60, 80]);
  }

  function remember(kind, title, name, later) {
    const item = document.createElement("li");
    item.className = `recent-${kind}`;
    item.textContent = `${new Date().toLocaleTimeString(document.documentElement.lang, clock)} · ${title}${name ? ` · ${name}` : ""}${later ? ` (${t.sentLater})` : ""}`;
    recent.prepend(item);
    while (recent.children.length > 12) recent.lastChild.remove();
  }

  function counted(kind) {
    if (kind !== "valid") return;
    const checked = Number(counts.dataset.checked) + 1;
    counts.dataset.checked = String(checked);
    const registered = Number(counts.dataset.registered);
    counts.textContent = fill(t.counts.line, { checked: plural(t.counts.checked, checked), registered: plural(t.counts.registered, registered) });
  }

  function showNet() {
    const offline = !navigator.onLine || queue.length > 0;
    net.className = offline ? "net net-offline" : "net";
    net.textContent = navigator.onLine
      ? queue.length
        ? plural(t.queued, queue.length)
        : t.online
      : `${t.offline}${queue.length ? ` ${plural(t.queued, queue.length)}` : ""}`;
  }

  /** The server answered, but not as the signed-in door: the session has ended. */
  class SignedOut extends Error {}

  /** One scan to the server: the verdict, or an error with the server's message; throws when the network (or the server) is down. */
  async function send(scan) {
    const body = new URLSearchParams({ _csrf: csrf, code: scan.code, nonce: scan.nonce });
    // A request that hangs (a network coming back, a captive portal) is given up after 8 s, so the
    // queue is not stuck behind it: the scan goes again, and its nonce checks it in once.
    const signal = AbortSignal.timeout ? AbortSignal.timeout(8000) : undefined;
    const res = await fetch(form.action, {
      method: "POST",
      body,
      headers: { accept: "application/json" },
      credentials: "same-origin",
      redirect: "manual",
      signal,
    });
    // A server in trouble is the network's case: the scan waits and goes again.
    if (res.status >= 500) throw new Error(`HTTP ${res.status}`);
    const type = res.headers.get("content-type") || "";
    // Anything but the door's JSON (the sign-in's redirect once the session has ended, a refused
    // CSRF token) is no verdict: the scan stays queued until the admin has signed in again.
    if (!type.includes("application/json")) throw new SignedOut();
    const answer = await res.json();
    return res.ok ? answer : { error: answer.error || t.error };
  }

  function render(answer, later) {
    if (answer.error) {
      show("not_registered", answer.error, "", "");
      remember("error", answer.error, "", later);
      return;
    }
    const detail = answer.kind === "already" && answer.checked_in_at ? fill(t.alreadyAt, { time: time(answer.checked_in_at) }) : answer.detail;
    if (!later) show(answer.kind, answer.title, answer.name, detail);
    remember(answer.kind, answer.title, answer.name, later);
    counted(answer.kind);
  }

  async function check(code) {
    const scan = { code, nonce: nonce() };
    if (!navigator.onLine) return keep(scan);
    try {
      render(await send(scan), false);
    } catch (err) {
      keep(scan, err instanceof SignedOut);
    }
  }

  function keep(scan, signedOut = false) {
    queue.push(scan);
    save();
    show("offline", signedOut ? t.signedOut : t.savedOffline, "", `${scan.code} · ${t.savedOfflineDetail}`);
    showNet();
  }

  let flushing = false;
  // A try asked for while one is under way. The network coming back during a send begun offline
  // (the tick's): that send fails, and the `online` event that came meanwhile must still count,
  // or the scans wait for the next tick, 5 s on.
  let again = false;
  async function flush() {
    // Tried whatever navigator.onLine says: it lags behind the network (and is true behind a
    // captive portal); a failed send just leaves the scans queued for the next try.
    if (flushing) {
      again = true;
      return showNet();
    }
    if (!queue.length) return showNet();
    flushing = true;
    again = false;
    let failed = false;
    try {
      while (queue.length) {
        render(await send(queue[0]), true);
        queue.shift();
        save();
      }
    } catch (err) {
      failed = true;
      // Still offline (or signed out): the next try will send them.
      if (err instanceof SignedOut) show("offline", t.signedOut, "", "");
    } finally {
      flushing = false;
      showNet();
    }
    // Once only: a try asked for during this one (not a loop while the network stays down).
    if (failed && again) {
      again = false;
      flush();
    }
  }
  window.addEventListener("online", flush);
  window.addEventListener("offline", showNet);
  setInterval(flush, 5000);
  flush();

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const code = input.value.trim();
    if (!code) return input.focus();
    input.value = "";
    check(code);
    input.focus();
  });

  // ---- The camera ----
  let stream = null;
  let detector = null;
  let lastCode = "";
  let lastAt = 0;
  const canvas = document.createElement("canvas");

  async function decoder() {
    if ("BarcodeDetector" in window) {
      try {
        const formats = await window.BarcodeDetector.getSupportedFormats();
        if (formats.includes("qr_code")) {
          const native = new window.BarcodeDetector({ formats: ["qr_code"] });
          return async () => (await native.detect(video))[0]?.rawValue ?? null;
        }
      } catch {
        // Fall through to jsQR.
      }
    }
    if (!window.jsQR) {
      await new Promise((resolve, reject) => {
        const script = document.createElement("script");
        script.src = root.dataset.jsqr;
        script.onload = resolve;
        script.onerror = reject;
        document.head.append(script);
      });
    }
    const context = canvas.getContext("2d", { willReadFrequently: true });
    return async () => {
      const scale = Math.min(1, 640 / (video.videoWidth || 640));
      canvas.width = Math.round(video.videoWidth * scale);
      canvas.height = Math.round(video.videoHeight * scale);
      if (!canvas.width || !canvas.height) return null;
      context.drawImage(video, 0, 0, canvas.width, canvas.height);
      const image = context.getImageData(0, 0, canvas.width, canvas.height);
      return window.jsQR(image.data, image.width, image.height, { inversionAttempts: "dontInvert" })?.data ?? null;
    };
  }

  async function loop() {
    if (!stream) return;
    try {
      const code = (await detector())?.trim();
      // The same code held in front of the camera counts once every few seconds.
      if (code && (code !== lastCode || Date.now() - lastAt > 4000)) {
        lastCode = code;
        lastAt = Date.now();
        await check(code);
      }
    } catch {
      // A frame that could not be read: try the next one.
    }
    setTimeout(loop, 250);
  }

  async function start() {
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
      // Inline on iPhones, not full screen (the attribute is set here: the markup types do not know it).
      video.playsInline = true;
      video.srcObject = stream;
      video.hidden = false;
      await video.play();
      detector = detector || (await decoder());
      toggle.textContent = t.stopCamera;
      note.hidden = true;
      loop();
    } catch {
      stop();
      note.textContent = t.cameraDenied;
      note.hidden = false;
    }
  }

  function stop() {
    if (stream) for (const track of stream.getTracks()) track.stop();
    stream = null;
    video.hidden = true;
    toggle.textContent = t.startCamera;
  }

  if (navigator.mediaDevices?.getUserMedia) {
    toggle.hidden = false;
    toggle.addEventListener("click", () => (stream ? stop() : start()));
  } else {
    note.textContent = t.cameraUnavailable;
    note.hidden = false;
  }
  showNet();
})();
