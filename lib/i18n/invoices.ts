// The texts of the invoice PDF (lib/invoices/pdf.ts), in the four languages a club can choose.
// The Swiss QR-bill's own labels ("Payment part", "Account / Payable to"...) are swissqrbill's.
// Placeholders: {number}, {iban}, {reference}.
import type { Locale } from "./messages";

export type InvoiceTexts = {
  title: string;
  number: string;
  issuedOn: string;
  dueOn: string;
  reference: string;
  description: string;
  amount: string;
  total: string;
  /** The QR-bill's message to the payee: the invoice it pays. */
  message: string;
  /** Above the EPC QR code. */
  scanToPay: string;
  /** Above the transfer details in text. */
  transfer: string;
  beneficiary: string;
  iban: string;
  bic: string;
  /** Why there is no payment part, or no QR code, on this invoice. */
  why: { noIban: string; address: string; currency: string; reference: string; invalid: string };
  cancelled: string;
  paid: string;
  /** The mail that carries the PDF (lib/invoices/send.ts). Placeholders: {first}, {club}, {number}, {amount}, {due}. */
  mail: { subject: string; hello: string; body: string; bye: string };
};

export const INVOICE_TEXTS: Record<Locale, InvoiceTexts> = {
  fr: {
    title: "Facture",
    number: "N°",
    issuedOn: "Date",
    dueOn: "Échéance",
    reference: "Référence",
    description: "Description",
    amount: "Montant",
    total: "Total",
    message: "Facture {number}",
    scanToPay: "Scannez pour payer (virement SEPA)",
    transfer: "Paiement par virement bancaire",
    beneficiary: "Bénéficiaire",
    iban: "IBAN",
    bic: "BIC",
    why: {
      noIban: "Pas de bulletin de paiement : le club n'a pas encore indiqué de compte (IBAN). Contactez-le pour payer.",
      address: "Pas de QR-facture : l'adresse postale du club (rue, NPA, localité, pays) est incomplète. Payez par virement :",
      currency: "Pas de code QR pour cette monnaie et ce compte. Payez par virement :",
      reference: "Pas de QR-facture : la référence de cette facture a été faite pour un autre compte du club. Payez par virement :",
      invalid: "Pas de code QR : les données du club ne passent pas la validation bancaire. Payez par virement :",
    },
    cancelled: "Facture annulée : rien à payer.",
    paid: "Facture payée. Merci !",
    mail: {
      subject: "Facture {number} de {club}",
      hello: "Bonjour {first},",
      body: "Voici notre facture {number} de {amount}, à régler d'ici le {due}. Vous la trouverez en pièce jointe (PDF), avec tout ce qu'il faut pour le paiement.",
      bye: "Merci et à bientôt,",
    },
  },
  en: {
    title: "Invoice",
    number: "No.",
    issuedOn: "Date",
    dueOn: "Due",
    reference: "Reference",
    description: "Description",
    amount: "Amount",
    total: "Total",
    message: "Invoice {number}",
    scanToPay: "Scan to pay (SEPA transfer)",
    transfer: "Payment by bank transfer",
    beneficiary: "Beneficiary",
    iban: "IBAN",
    bic: "BIC",
    why: {
      noIban: "No payment slip: the club has not given an account (IBAN) yet. Please contact it to pay.",
      address: "No QR-bill: the club's postal address (street, postcode, town, country) is incomplete. Pay by bank transfer:",
      currency: "No QR code for this currency and account. Pay by bank transfer:",
      reference: "No QR-bill: this invoice's reference was made for another account of the club. Pay by bank transfer:",
      invalid: "No QR code: the club's details do not pass the banks' validation. Pay by bank transfer:",
    },
    cancelled: "Invoice cancelled: nothing to pay.",
    paid: "Invoice paid. Thank you!",
    mail: {
      subject: "Invoice {number} from {club}",
      hello: "Hello {first},",
      body: "Here is our invoice {number} for {amount}, due by {due}. It is attached (PDF), with all you need to pay it.",
      bye: "Thank you, and see you soon,",
    },
  },
  de: {
    title: "Rechnung",
    number: "Nr.",
    issuedOn: "Datum",
    dueOn: "Fällig am",
    reference: "Referenz",
    description: "Beschreibung",
    amount: "Betrag",
    total: "Total",
    message: "Rechnung {number}",
    scanToPay: "Zum Bezahlen scannen (SEPA-Überweisung)",
    transfer: "Zahlung per Banküberweisung",
    beneficiary: "Empfänger",
    iban: "IBAN",
    bic: "BIC",
    why: {
      noIban: "Kein Zahlteil: der Verein hat noch kein Konto (IBAN) angegeben. Bitte kontaktieren Sie ihn zum Bezahlen.",
      address: "Keine QR-Rechnung: die Postadresse des Vereins (Strasse, PLZ, Ort, Land) ist unvollständig. Bitte überweisen Sie:",
      currency: "Kein QR-Code für diese Währung und dieses Konto. Bitte überweisen Sie:",
      reference: "Keine QR-Rechnung: die Referenz dieser Rechnung wurde für ein anderes Konto des Vereins erstellt. Bitte überweisen Sie:",
      invalid: "Kein QR-Code: die Angaben des Vereins bestehen die Prüfung der Banken nicht. Bitte überweisen Sie:",
    },
    cancelled: "Rechnung storniert: nichts zu bezahlen.",
    paid: "Rechnung bezahlt. Vielen Dank!",
    mail: {
      subject: "Rechnung {number} von {club}",
      hello: "Hallo {first},",
      body: "Hier ist unsere Rechnung {number} über {amount}, zahlbar bis {due}. Sie finden sie im Anhang (PDF), mit allem, was Sie zum Bezahlen brauchen.",
      bye: "Vielen Dank und bis bald,",
    },
  },
  it: {
    title: "Fattura",
    number: "N.",
    issuedOn: "Data",
    dueOn: "Scadenza",
    reference: "Riferimento",
    description: "Descrizione",
    amount: "Importo",
    total: "Totale",
    message: "Fattura {number}",
    scanToPay: "Scansiona per pagare (bonifico SEPA)",
    transfer: "Pagamento con bonifico bancario",
    beneficiary: "Beneficiario",
    iban: "IBAN",
    bic: "BIC",
    why: {
      noIban: "Nessuna sezione di pagamento: il club non ha ancora indicato un conto (IBAN). Contattatelo per pagare.",
      address: "Nessuna QR-fattura: l'indirizzo postale del club (via, NPA, località, paese) è incompleto. Pagate con bonifico:",
      currency: "Nessun codice QR per questa valuta e questo conto. Pagate con bonifico:",
      reference: "Nessuna QR-fattura: il riferimento di questa fattura è stato creato per un altro conto del club. Pagate con bonifico:",
      invalid: "Nessun codice QR: i dati del club non superano la convalida bancaria. Pagate con bonifico:",
    },
    cancelled: "Fattura annullata: nulla da pagare.",
    paid: "Fattura pagata. Grazie!",
    mail: {
      subject: "Fattura {number} di {club}",
      hello: "Ciao {first},",
      body: "Ecco la nostra fattura {number} di {amount}, da pagare entro il {due}. La trovate in allegato (PDF), con tutto il necessario per il pagamento.",
      bye: "Grazie e a presto,",
    },
  },
};
