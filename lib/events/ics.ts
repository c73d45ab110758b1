// An event as an iCalendar file (RFC 5545, text/calendar): the one writer behind a
// registration's calendar file (lib/registrations/public) and the event page's own
// (/e/<club>/<event>.ics, lib/pages/event).
import type { FileReply } from "../reply";

const icsText = (s: string) => s.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");
const icsTime = (iso: string) => iso.replace(/[-:]/g, "").replace(/\.\d{3}/, "");

/** RFC 5545 line folding: at most 75 octets a line, continuation lines start with a space. */
function fold(line: string): string {
  const bytes = new TextEncoder();
  const parts: string[] = [];
  let current = "";
  for (const ch of line) {
    if (bytes.encode(current + ch).length > (parts.length ? 74 : 75)) {
      parts.push(current);
      current = "";
    }
    current += ch;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

type CalendarEvent = {
  title: string;
  slug: string;
  starts_at: string;
  ends_at: string | null;
  location_name: string | null;
  location_address: string | null;
  status: string;
};

/** The event as a calendar file named after its slug; without an end it lasts two hours. `uid` names the entry (one per registration, or the event's). */
export function eventCalendar(event: CalendarEvent, entry: { uid: string; description: string; url: string }): FileReply {
  const ends = event.ends_at ?? new Date(Date.parse(event.starts_at) + 2 * 3_600_000).toISOString();
  const location = [event.location_name, event.location_address].filter(Boolean).join(", ");
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//club-api//events//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    "BEGIN:VEVENT",
    `UID:${entry.uid}`,
    `DTSTAMP:${icsTime(new Date().toISOString())}`,
    `DTSTART:${icsTime(event.starts_at)}`,
    `DTEND:${icsTime(ends)}`,
    `SUMMARY:${icsText(event.title)}`,
    ...(location ? [`LOCATION:${icsText(location)}`] : []),
    `DESCRIPTION:${icsText(entry.description)}`,
    `URL:${entry.url}`,
    `STATUS:${event.status === "cancelled" ? "CANCELLED" : "CONFIRMED"}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return { body: `${lines.map(fold).join("\r\n")}\r\n`, contentType: "text/calendar; charset=utf-8", filename: `${event.slug}.ics` };
}
