// /admin/door/:event_id — the door: a check-in screen for a phone, belonging to one event
// (chosen from the events page, or from /admin/door). A scanned QR code (the camera, through
// dashboard/assets/door.js) or a typed code goes to the API's check-in verb, and the answer is a
// big verdict in colour with the name: valid (green), already (orange), not registered (red).
// Without script the typed code's form posts and the page shows the verdict; with it, door.js
// posts each scan for a JSON answer and keeps scans made offline until the network is back (each
// with its nonce, so a resend checks in once).
import { checkinEvent, getEvent, listEvents } from "../../lib/events";
import { CheckinPayload, type CheckinResult, type EventAdminDetail } from "../../lib/events/schemas";
import { fill } from "../../lib/i18n/dashboard";
import { DOOR_TEXTS, type DoorTexts, doorCounts } from "../../lib/i18n/dashboard-door";
import { newId } from "../../lib/ids";
import { assetUrl } from "../assets";
import { check, Notice, NO_PROBLEMS, type Problems, problemsOf } from "../components/form";
import { instant, zoned } from "../format";
import { Fragment, h, type Html } from "../jsx";
import { CsrfField } from "../layout";
import { definePage, type PageInput } from "../page";
import { tabOf } from "./events";

/** Opening the door needs reading the event and checking in, as the API's routes do (its navigation entry too: no link to a 403). */
const DOOR_SCOPE = [getEvent.scope, checkinEvent.scope].flat();

/** What the verdict box shows: its colour, its big word, the name and a detail line. */
type Shown = { kind: "idle" | "valid" | "already" | "not_registered"; title: string; name: string; detail: string };

/** The verdict as shown; a code that names nobody is shown back (a misread or mistyped code is seen at once). */
function shownOf(result: CheckinResult, tt: DoorTexts, input: PageInput, code: string): Shown {
  const reg = result.registration;
  const detail =
    result.verdict === "already" && result.checked_in_at
      ? fill(tt.alreadyAt, { time: zoned(instant(result.checked_in_at, input.locale, input.timeZone), input.timeZone) })
      : (reg?.ticket_name ?? code.slice(0, 60));
  return { kind: result.verdict, title: tt.verdict[result.verdict], name: reg ? `${reg.first_name} ${reg.last_name}` : "", detail };
}

function VerdictBox(props: { shown: Shown }): Html {
  const { shown } = props;
  return (
    <div id="verdict" class={`verdict verdict-${shown.kind}`} role="status" aria-live="assertive" aria-atomic="true">
      <p class="v-title">{shown.title}</p>
      <p class="v-name">{shown.name}</p>
      <p class="v-detail">{shown.detail}</p>
    </div>
  );
}

function doorPage(input: PageInput, event: EventAdminDetail, shown: Shown | null, problems: Problems): Response {
  const tt = DOOR_TEXTS[input.locale];
  const path = `/admin/door/${event.id}`;
  // The texts the script shows by itself (offline, the camera); the verdicts come with each answer.
  const scriptTexts = {
    online: tt.online,
    offline: tt.offline,
    queued: tt.queued,
    counts: tt.counts,
    savedOffline: tt.savedOffline,
    savedOfflineDetail: tt.savedOfflineDetail,
    signedOut: tt.signedOut,
    sentLater: tt.sentLater,
    error: tt.error,
    startCamera: tt.startCamera,
    stopCamera: tt.stopCamera,
    cameraUnavailable: tt.cameraUnavailable,
    cameraDenied: tt.cameraDenied,
    alreadyAt: tt.alreadyAt,
  };
  return input.page(
    fill(tt.title, { title: event.title }),
    <Fragment>
      <div id="door" data-event={event.id} data-zone={input.timeZone} data-jsqr={assetUrl("jsQR.js")} data-texts={JSON.stringify(scriptTexts)}>
        <p class="door-top">
          <span id="door-counts" data-checked={String(event.checked_in_count)} data-registered={String(event.registered_count)}>
            {doorCounts(input.locale, tt, event.checked_in_count, event.registered_count)}
          </span>
          <span id="net" class="net" role="status">
            {tt.online}
          </span>
        </p>
        <Notice error={problems.message} />
        <VerdictBox shown={shown ?? { kind: "idle", title: tt.ready, name: "", detail: "" }} />
        <div class="camera">
          <video id="camera" muted hidden></video>
          <button type="button" id="camera-toggle" class="secondary" hidden>
            {tt.startCamera}
          </button>
          <p id="camera-note" class="muted" hidden></p>
        </div>
        <form method="post" action={path} class="door-code card" novalidate>
          <CsrfField token={input.csrf} />
          <input type="hidden" name="nonce" value={newId()} />
          <label for="f-code">{tt.code}</label>
          <div class="door-row">
            <input
              id="f-code"
              name="code"
              type="text"
              required
              autocomplete="off"
              autocapitalize="off"
              spellcheck="false"
              enterkeyhint="go"
              aria-describedby="f-code-hint"
              aria-invalid={problems.fields.code ? "true" : undefined}
            />
            <button type="submit">{tt.checkIn}</button>
          </div>
          <p id="f-code-hint" class="muted small">
            {problems.fields.code ?? tt.codeHint}
          </p>
        </form>
        <section aria-labelledby="recent-title">
          <h2 id="recent-title">{tt.recent}</h2>
          <ul id="recent" class="recent"></ul>
        </section>
        <p>
          <a href={`/admin/events/${event.id}`}>{tt.backToEvent}</a>
        </p>
      </div>
      <script src={assetUrl("door.js")} defer></script>
    </Fragment>,
    { status: problems.status },
  );
}

function wantsJson(input: PageInput): boolean {
  return (input.request.headers.get("accept") ?? "").includes("application/json");
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" } });
}

async function scan(input: PageInput): Promise<Response> {
  const tt = DOOR_TEXTS[input.locale];
  const asJson = wantsJson(input);
  const code = input.form?.get("code");
  const nonce = input.form?.get("nonce");
  const checked = check(
    CheckinPayload,
    { code: typeof code === "string" ? code : undefined, nonce: typeof nonce === "string" && nonce ? nonce : undefined },
    input.locale,
  );
  const fail = async (problems: Problems) =>
    asJson
      ? json({ error: problems.message ?? Object.values(problems.fields).join(" ") }, problems.status)
      : doorPage(input, await getEvent(input.ctx, { event_id: input.params.event_id }), null, problems);
  if (!checked.ok) return fail(checked.problems);
  let result: CheckinResult;
  try {
    result = await checkinEvent(input.ctx, { ...checked.data, event_id: input.params.event_id });
  } catch (err) {
    return fail(problemsOf(err, input.locale));
  }
  const shown = shownOf(result, tt, input, checked.data.code);
  if (asJson) return json({ ...shown, checked_in_at: result.checked_in_at });
  return doorPage(input, await getEvent(input.ctx, { event_id: input.params.event_id }), shown, NO_PROBLEMS);
}

/** /admin/door: the events a door can open for (the events page's upcoming ones: published, from today on), soonest first. */
async function choose(input: PageInput): Promise<Response> {
  const tt = DOOR_TEXTS[input.locale];
  const events = (await listEvents(input.ctx, {})).filter((e) => tabOf(e, input.timeZone) === "upcoming").reverse();
  return input.page(
    tt.chooseTitle,
    <Fragment>
      <p>{tt.chooseHint}</p>
      {events.length ? (
        <ul class="door-choose">
          {events.map((e) => (
            <li>
              <a class="button" href={`/admin/door/${e.id}`}>
                {e.title} · {zoned(instant(e.starts_at, input.locale, input.timeZone), input.timeZone)}
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p class="card">{tt.noEvents}</p>
      )}
    </Fragment>,
  );
}

export default definePage({
  nav: { id: "door", path: "/door", scope: DOOR_SCOPE, order: 45 },
  routes: [
    { method: "GET", path: "/door", scope: DOOR_SCOPE, handler: choose },
    {
      method: "GET",
      path: "/door/:event_id",
      scope: DOOR_SCOPE,
      handler: async (input) => doorPage(input, await getEvent(input.ctx, { event_id: input.params.event_id }), null, NO_PROBLEMS),
    },
    { method: "POST", path: "/door/:event_id", scope: DOOR_SCOPE, handler: scan },
  ],
});
