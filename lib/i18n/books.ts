// The texts of the club's books (lib/books): the description of each ledger item and journal
// line, in the four languages a club can choose. Placeholders: {name}, {event}, {what}, {id}.
import type { Locale } from "./messages";

export type BooksTexts = {
  /** A membership payment, by the payer's name. */
  membership: string;
  /** A ticket, by its event and the attendee's name. */
  event: string;
  /** A payment that names no member and no registration. */
  other: string;
  /** A negative payment: `{what}` is what the payment it reverses was for. */
  refund: string;
  /** The payment provider's fee of a card payment. */
  fee: string;
  /** The platform's commission of a payment. */
  commission: string;
  /** A provider's payout to the club's bank ({id}: the provider's payout). */
  payout: string;
};

export const BOOKS_TEXTS: Record<Locale, BooksTexts> = {
  fr: {
    membership: "Cotisation {name}",
    event: "{event} – {name}",
    other: "Paiement",
    refund: "Remboursement : {what}",
    fee: "Frais de paiement : {what}",
    commission: "Commission de la plateforme : {what}",
    payout: "Versement du prestataire {id}",
  },
  en: {
    membership: "Membership {name}",
    event: "{event} – {name}",
    other: "Payment",
    refund: "Refund: {what}",
    fee: "Payment fee: {what}",
    commission: "Platform commission: {what}",
    payout: "Provider payout {id}",
  },
  de: {
    membership: "Mitgliederbeitrag {name}",
    event: "{event} – {name}",
    other: "Zahlung",
    refund: "Rückerstattung: {what}",
    fee: "Zahlungsgebühr: {what}",
    commission: "Plattformprovision: {what}",
    payout: "Auszahlung des Anbieters {id}",
  },
  it: {
    membership: "Quota sociale {name}",
    event: "{event} – {name}",
    other: "Pagamento",
    refund: "Rimborso: {what}",
    fee: "Commissione di pagamento: {what}",
    commission: "Commissione della piattaforma: {what}",
    payout: "Versamento del fornitore {id}",
  },
};
