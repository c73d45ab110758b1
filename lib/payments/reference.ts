// ISO 11649 creditor references ("RF" + two check digits + up to 21 letters and digits): what a
// member writes with a bank transfer so the treasurer can match it (DESIGN.md section 13).

/** The reference's check: letters as numbers (A=10 ... Z=35), then ISO 7064 mod 97-10. */
function mod97(digits: string): number {
  let rest = 0;
  for (const ch of digits) rest = (rest * 10 + Number(ch)) % 97;
  return rest;
}

const asDigits = (text: string) => [...text].map((c) => (/[0-9]/.test(c) ? c : String(c.charCodeAt(0) - 55))).join("");

/** The creditor reference of `base` (letters and digits, at most 21; other characters are dropped). */
export function creditorReference(base: string): string {
  const body = base
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, "")
    .slice(0, 21);
  const check = 98 - mod97(asDigits(`${body}RF00`));
  return `RF${String(check).padStart(2, "0")}${body}`;
}

/** Whether `reference` is a well-formed creditor reference with the right check digits. */
export function isCreditorReference(reference: string): boolean {
  const r = reference.replace(/\s+/g, "").toUpperCase();
  if (!/^RF\d{2}[0-9A-Z]{1,21}$/.test(r)) return false;
  return mod97(asDigits(`${r.slice(4)}${r.slice(0, 4)}`)) === 1;
}

/**
 * An event registration's creditor reference: `T` and the last 20 hex digits of its id (a UUID
 * v7's random part, the timestamp left out), 21 characters: never the length of a member's card
 * code, so a reference names one kind of thing.
 */
export function registrationReference(registrationId: string): string {
  return creditorReference(`T${registrationId.slice(14).replace(/-/g, "")}`);
}

/**
 * What a well-formed reference names: a member's card code, the tail of a registration's id as
 * stored (`xxxx-xxxx-xxxxxxxxxxxx`), or an invoice by its reference as stored (QRR digits, or
 * `RF..INV...`: see invoiceReference).
 */
export type ReferenceTarget = { kind: "member"; code: string } | { kind: "registration"; idTail: string } | { kind: "invoice"; reference: string };

/** The target of `reference` (spaces ignored), or null when it is neither a QR reference nor a creditor reference with the right check digits. */
export function referenceTarget(reference: string): ReferenceTarget | null {
  const compact = reference.replace(/\s+/g, "").toUpperCase();
  if (isQrReference(compact)) return { kind: "invoice", reference: compact };
  if (!isCreditorReference(compact)) return null;
  const body = compact.slice(4);
  if (/^INV\d{10}$/.test(body)) return { kind: "invoice", reference: compact };
  if (/^T[0-9A-F]{20}$/.test(body)) {
    const hex = body.slice(1).toLowerCase();
    return { kind: "registration", idTail: `${hex.slice(0, 4)}-${hex.slice(4, 8)}-${hex.slice(8)}` };
  }
  return { kind: "member", code: body };
}

// Swiss QR references (QRR, SIX "Swiss Implementation Guidelines for the QR-bill"): 26 digits
// and a check digit by mod 10 recursive, the only reference a payment to a QR-IBAN may carry.
const MOD10_TABLE = [0, 9, 4, 6, 8, 2, 7, 1, 3, 5];

/** The mod 10 recursive check digit of `digits`. */
function mod10Recursive(digits: string): number {
  let carry = 0;
  for (const d of digits) carry = MOD10_TABLE[(carry + Number(d)) % 10];
  return (10 - carry) % 10;
}

/** The QR reference of `digits` (at most 26, left-padded with zeros), its check digit appended. */
export function qrReference(digits: string): string {
  const body = digits.padStart(26, "0");
  if (!/^\d{26}$/.test(body)) throw new Error("a QR reference holds 26 digits and its check digit");
  return `${body}${mod10Recursive(body)}`;
}

/** Whether `reference` is 27 digits whose last is the mod 10 recursive check digit of the others. */
export function isQrReference(reference: string): boolean {
  const r = reference.replace(/\s+/g, "");
  return /^\d{27}$/.test(r) && mod10Recursive(r.slice(0, 26)) === Number(r[26]);
}

/**
 * An invoice's reference, from its year and its number in the year (unique per club, as they
 * are): a QR reference when the club's IBAN is a QR-IBAN (nothing else is accepted there), else
 * the creditor reference `RF..INV<year><number, 6 digits>`: `INV` and 10 digits, never a member's
 * card code nor a registration's `T...` reference, so a reference names one kind of thing.
 */
export function invoiceReference(qrIban: boolean, year: number, seq: number): string {
  const digits = `${year}${String(seq).padStart(10, "0")}`;
  return qrIban ? qrReference(digits) : creditorReference(`INV${year}${String(seq).padStart(6, "0")}`);
}
/** A payment's number as its receipt prints it and the journal's `doc` names it: the last 12 hex digits of its id, upper case. */
export const receiptNumber = (paymentId: string): string => paymentId.slice(-12).toUpperCase();
