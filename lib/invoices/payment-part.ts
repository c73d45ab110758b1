// What an invoice's payment part is (DESIGN.md section 20): the Swiss QR-bill when the club's
// IBAN is Swiss or Liechtenstein and the currency CHF or EUR; an EPC QR code (GiroCode, BCD 002)
// for EUR with another SEPA IBAN; else the transfer details in text; no IBAN, none. Each QR
// choice falls back to text with its reason when the club's details do not allow it (an
// incomplete postal address, a reference made for another account, data a bank would refuse).
// Pure: lib/invoices/pdf.ts draws what this decides, and the tests read the same decision.
import type { Data as QrBillData } from "swissqrbill/types";
import type { clubs } from "../../db/schema";
import { electronicIban, ibanCountry, isQrIban } from "../iban";
import { isCreditorReference, isQrReference } from "../payments/reference";
import type { InvoiceRow } from "./index";

type ClubRow = typeof clubs.$inferSelect;

/** Countries whose banks take SEPA credit transfers (EPC's list of SEPA schemes' countries, 2025), by IBAN prefix. */
const SEPA = new Set(
  "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO CH MC SM VA AD GB GI GG JE IM AL MD ME MK".split(" "),
);

export type WhyNoQr = "noIban" | "address" | "currency" | "reference" | "invalid";

export type Transfer = { beneficiary: string; iban: string; bic: string | null; reference: string; amount_cents: number; currency: string };

export type PaymentPart =
  | { kind: "qrbill"; data: QrBillData }
  | { kind: "epc"; payload: string; transfer: Transfer }
  | { kind: "text"; why: WhyNoQr | null; transfer: Transfer }
  | { kind: "none"; why: "noIban" };

/** The IBAN in groups of four, as people copy it. */
export const printedIban = (iban: string) =>
  electronicIban(iban)
    .replace(/(.{4})/g, "$1 ")
    .trim();

/**
 * How to pay `invoice` by bank transfer (the PDF's payment part, the member's page): the club's
 * payout account, the invoice's reference and what is left to pay (a partial payment already
 * received is not asked again). Null when the club has no payout IBAN.
 */
export function invoiceTransfer(
  club: Pick<ClubRow, "payout_iban" | "payout_beneficiary_name" | "payout_bic" | "name">,
  invoice: Pick<InvoiceRow, "reference" | "amount_cents" | "paid_cents" | "currency">,
): Transfer | null {
  if (!club.payout_iban) return null;
  return {
    beneficiary: club.payout_beneficiary_name || club.name,
    iban: printedIban(club.payout_iban),
    bic: club.payout_bic || null,
    reference: invoice.reference,
    amount_cents: invoice.amount_cents - invoice.paid_cents,
    currency: invoice.currency,
  };
}

/**
 * The payment part of `invoice` for `club`. `message` is the payee's note (the invoice's number in
 * the club's language); `epc` builds the EPC payload (sepa-payment-qr-code, loaded by the caller).
 */
export function paymentPart(
  club: ClubRow,
  invoice: InvoiceRow,
  message: string,
  epc: (data: Parameters<typeof import("sepa-payment-qr-code").default>[0]) => string,
): PaymentPart {
  const transfer = invoiceTransfer(club, invoice);
  if (!transfer || !club.payout_iban) return { kind: "none", why: "noIban" };
  const iban = electronicIban(club.payout_iban);
  const due = transfer.amount_cents;
  const beneficiary = transfer.beneficiary;
  const country = ibanCountry(iban);
  if ((country === "CH" || country === "LI") && (invoice.currency === "CHF" || invoice.currency === "EUR")) {
    if (!club.address || !club.postal_code || !club.city || !club.country) return { kind: "text", why: "address", transfer };
    // A QR-IBAN takes only a QR reference, any other IBAN only a creditor reference: an invoice
    // made before the club changed its IBAN may carry the other kind.
    const fits = isQrIban(iban) ? isQrReference(invoice.reference) : isCreditorReference(invoice.reference);
    if (!fits) return { kind: "text", why: "reference", transfer };
    return {
      kind: "qrbill",
      data: {
        amount: due / 100,
        currency: invoice.currency,
        reference: invoice.reference,
        message,
        creditor: {
          account: iban,
          name: beneficiary.slice(0, 70),
          address: club.address.slice(0, 70),
          zip: club.postal_code.slice(0, 16),
          city: club.city.slice(0, 35),
          country: club.country,
        },
      },
    };
  }
  if (invoice.currency === "EUR" && SEPA.has(country)) {
    try {
      const payload = epc({
        name: beneficiary.slice(0, 70),
        iban,
        ...(club.payout_bic ? { bic: club.payout_bic.replace(/\s+/g, "") } : {}),
        amount: due / 100,
        // EPC's structured remittance is the creditor reference; a QR reference is sent as text.
        ...(isCreditorReference(invoice.reference) ? { structuredReference: invoice.reference } : { unstructuredReference: invoice.reference }),
        information: message.slice(0, 70),
      });
      return { kind: "epc", payload, transfer };
    } catch {
      return { kind: "text", why: "invalid", transfer };
    }
  }
  return { kind: "text", why: "currency", transfer };
}
