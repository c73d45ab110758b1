// The texts of the payment receipt and the refund note (lib/payments/receipt.ts), in the four
// languages a club can choose. Placeholders: {first}, {club}, {amount}, {date}, {what},
// {reference}, {receipt}, {tier}, {end}, {event}, {ticket}.
import type { Locale } from "./messages";

export type ReceiptTexts = {
  hello: string;
  bye: string;
  receipt: { subject: string; body: string };
  refund: { subject: string; body: string };
  /** One line each, under the body (every payer has a reference: their card code, or the registration). */
  lines: { amount: string; date: string; what: string; reference: string; receipt: string };
  /** What was paid for. */
  membership: string;
  membershipTier: string;
  event: string;
};

export const RECEIPT_TEXTS: Record<Locale, ReceiptTexts> = {
  fr: {
    hello: "Bonjour {first},",
    bye: "Merci et à bientôt,",
    receipt: { subject: "Reçu de votre paiement à {club}", body: "Nous avons bien reçu votre paiement. Voici votre reçu :" },
    refund: { subject: "Remboursement de {club}", body: "Nous vous avons remboursé le montant ci-dessous :" },
    lines: { amount: "Montant : {amount}", date: "Date : {date}", what: "Pour : {what}", reference: "Référence : {reference}", receipt: "Reçu n° {receipt}" },
    membership: "adhésion jusqu'au {end}",
    membershipTier: "adhésion {tier} jusqu'au {end}",
    event: "{event}, billet {ticket}",
  },
  en: {
    hello: "Hello {first},",
    bye: "Thank you, and see you soon,",
    receipt: { subject: "Receipt for your payment to {club}", body: "We have received your payment. Here is your receipt:" },
    refund: { subject: "Refund from {club}", body: "We have refunded you the amount below:" },
    lines: { amount: "Amount: {amount}", date: "Date: {date}", what: "For: {what}", reference: "Reference: {reference}", receipt: "Receipt no. {receipt}" },
    membership: "membership until {end}",
    membershipTier: "{tier} membership until {end}",
    event: "{event}, {ticket} ticket",
  },
  de: {
    hello: "Hallo {first},",
    bye: "Vielen Dank und bis bald,",
    receipt: { subject: "Quittung für Ihre Zahlung an {club}", body: "Wir haben Ihre Zahlung erhalten. Hier ist Ihre Quittung:" },
    refund: { subject: "Rückerstattung von {club}", body: "Wir haben Ihnen den folgenden Betrag zurückerstattet:" },
    lines: { amount: "Betrag: {amount}", date: "Datum: {date}", what: "Für: {what}", reference: "Referenz: {reference}", receipt: "Quittung Nr. {receipt}" },
    membership: "Mitgliedschaft bis {end}",
    membershipTier: "Mitgliedschaft {tier} bis {end}",
    event: "{event}, Ticket {ticket}",
  },
  it: {
    hello: "Ciao {first},",
    bye: "Grazie e a presto,",
    receipt: { subject: "Ricevuta del suo pagamento a {club}", body: "Abbiamo ricevuto il suo pagamento. Ecco la sua ricevuta:" },
    refund: { subject: "Rimborso da {club}", body: "Le abbiamo rimborsato l'importo seguente:" },
    lines: { amount: "Importo: {amount}", date: "Data: {date}", what: "Per: {what}", reference: "Riferimento: {reference}", receipt: "Ricevuta n. {receipt}" },
    membership: "adesione fino al {end}",
    membershipTier: "adesione {tier} fino al {end}",
    event: "{event}, biglietto {ticket}",
  },
};
