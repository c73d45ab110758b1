// International bank account numbers (ISO 13616): the check a club's payout IBAN passes when it
// is saved, and what the invoices read from it (the country, whether it is a Swiss QR-IBAN).
// Stored as the admin typed it (groups of four are common); read through `electronicIban`.

/** ISO 7064 mod 97-10 of a string of digits, read in pieces so it never leaves a safe integer. */
function mod97(digits: string): number {
  let rest = 0;
  for (const ch of digits) rest = (rest * 10 + Number(ch)) % 97;
  return rest;
}

/** The IBAN without spaces, upper case: the form QR codes and bank files carry. */
export const electronicIban = (iban: string): string => iban.replace(/\s+/g, "").toUpperCase();

/** Whether `iban` (spaces allowed) is two letters, two check digits and 11 to 30 letters or digits whose mod 97 is 1. */
export function isValidIban(iban: string): boolean {
  const e = electronicIban(iban);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(e)) return false;
  const moved = `${e.slice(4)}${e.slice(0, 4)}`;
  return mod97([...moved].map((c) => (/[0-9]/.test(c) ? c : String(c.charCodeAt(0) - 55))).join("")) === 1;
}

/** The IBAN's country (its first two letters). */
export const ibanCountry = (iban: string): string => electronicIban(iban).slice(0, 2);

/**
 * A Swiss or Liechtenstein QR-IBAN: its institution id (the 5 digits after the check digits) is
 * 30000 to 31999. Payments to it carry a QR reference (QRR), never a creditor reference.
 */
export function isQrIban(iban: string): boolean {
  const e = electronicIban(iban);
  if (!["CH", "LI"].includes(e.slice(0, 2))) return false;
  const iid = Number(e.slice(4, 9));
  return iid >= 30000 && iid <= 31999;
}
