// Text as the database keys it for search and sort (members.search_text, members.sort_name):
// folded to lower case without accents, so that "zolc" finds Żółć and Čapek sorts among the C's.
// Pure functions, used by lib/ wherever those columns are written, and here in db/ because
// openDb's one-time backfill of sort_name (db/index.ts) needs them and db/ imports nothing from lib/.

/** Letters NFKD does not decompose (Polish ł, Nordic ø, German ß...). */
const FOLD: Record<string, string> = { ł: "l", Ł: "l", ø: "o", Ø: "o", ß: "ss", æ: "ae", Æ: "ae", œ: "oe", Œ: "oe", đ: "d", Đ: "d", ı: "i" };

/** Lower-case, accent-free text: what `search` compares (both sides folded the same way). */
export function foldText(text: string): string {
  return text
    .replace(/[łŁøØßæÆœŒđĐı]/g, (c) => FOLD[c])
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
}

/**
 * The member's place in alphabetical order, last name then first name, as a byte-comparable key
 * (SQLite's binary order, so that an index serves the name sort and the PDF roster streams in
 * order). Case and accents are ignored, as `Intl.Collator` does at base strength for fr, en, de
 * and it, which share the root order for letters. U+0001 sorts below any letter: "Roy, Zoé"
 * comes before "Royer, Anna".
 */
export function sortNameOf(m: { first_name: string; last_name: string }): string {
  return `${foldText(m.last_name.trim())}\u0001${foldText(m.first_name.trim())}`;
}

/** Domains whose mailboxes ignore dots in the local part (Gmail: j.doe and jdoe are one inbox). */
const DOTLESS_DOMAINS: Record<string, string> = { "gmail.com": "gmail.com", "googlemail.com": "gmail.com" };

/**
 * The mailbox an address reaches, as registrations compare it for an event's `max_per_email`
 * (issue 18): trimmed and lower-cased; a `+tag` dropped from the local part (plus addressing
 * delivers `ana+1@` and `ana+2@` to `ana@` at Gmail, Outlook, Fastmail, Proton, iCloud...); and at
 * Gmail the dots too. Here in db/ because openDb backfills it for registrations written before.
 */
export function emailKeyOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at <= 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (DOTLESS_DOMAINS[domain]) {
    domain = DOTLESS_DOMAINS[domain];
    local = local.replace(/\./g, "") || local;
  }
  return `${local}@${domain}`;
}
