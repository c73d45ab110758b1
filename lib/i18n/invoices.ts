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
  /** The dues run's line (lib/dues/run.ts). Placeholders: {name} (the tier's, else `membership`), {date}. */
  dues: {
    line: string;
    membership: string;
    credit: string;
    /** In a renewal reminder that carries the invoice (`renewal_invoices`). Placeholders: {number}, {amount}, {due}. */
    attached: string;
  };
  /**
   * A reminder of an overdue invoice (lib/dues/dunning.ts): the subject of the first level, of
   * a later one, of the last; the fee's line. Placeholders as the mail's, and {fee}.
   */
  dunning: {
    subject: { first: string; again: string; last: string };
    body: string;
    fee: string;
    feeLine: string;
    suspended: string;
    crossed: string;
  };
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
    dues: {
      line: "{name}, dès le {date}",
      membership: "Cotisation",
      credit: "Crédit de parrainage",
      attached: "Notre facture {number} de {amount}, à régler d'ici le {due}, est jointe (PDF) : vous pouvez aussi renouveler en la payant par virement.",
    },
    dunning: {
      subject: {
        first: "Rappel : facture {number} de {club}",
        again: "2e rappel : facture {number} de {club}",
        last: "Dernier rappel : facture {number} de {club}",
      },
      body: "Sauf erreur de notre part, notre facture {number}, échue le {due}, n'est pas encore payée : il reste {amount} à régler. La voici à nouveau en pièce jointe (PDF).",
      fee: "Des frais de rappel de {fee} y ont été ajoutés.",
      feeLine: "Frais de rappel",
      suspended: "Votre adhésion est suspendue jusqu'au paiement.",
      crossed: "Si vous avez payé entre-temps, merci de ne pas tenir compte de ce message.",
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
    dues: {
      line: "{name}, from {date}",
      membership: "Membership fee",
      credit: "Referral credit",
      attached: "Our invoice {number} for {amount}, due by {due}, is attached (PDF): you may also renew by paying it by bank transfer.",
    },
    dunning: {
      subject: {
        first: "Reminder: invoice {number} from {club}",
        again: "Second reminder: invoice {number} from {club}",
        last: "Final reminder: invoice {number} from {club}",
      },
      body: "Unless we are mistaken, our invoice {number}, due on {due}, is not paid yet: {amount} is left to pay. Here it is again, attached (PDF).",
      fee: "A reminder fee of {fee} has been added to it.",
      feeLine: "Reminder fee",
      suspended: "Your membership is suspended until it is paid.",
      crossed: "If you have paid in the meantime, please disregard this message.",
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
    dues: {
      line: "{name}, ab {date}",
      membership: "Mitgliederbeitrag",
      credit: "Empfehlungsguthaben",
      attached: "Unsere Rechnung {number} über {amount}, zahlbar bis {due}, liegt bei (PDF): Sie können auch verlängern, indem Sie sie überweisen.",
    },
    dunning: {
      subject: {
        first: "Zahlungserinnerung: Rechnung {number} von {club}",
        again: "2. Mahnung: Rechnung {number} von {club}",
        last: "Letzte Mahnung: Rechnung {number} von {club}",
      },
      body: "Sofern wir uns nicht irren, ist unsere Rechnung {number}, fällig am {due}, noch nicht bezahlt: es bleiben {amount} zu bezahlen. Sie finden sie nochmals im Anhang (PDF).",
      fee: "Eine Mahngebühr von {fee} wurde hinzugefügt.",
      feeLine: "Mahngebühr",
      suspended: "Ihre Mitgliedschaft ist bis zur Zahlung gesperrt.",
      crossed: "Falls Sie inzwischen bezahlt haben, betrachten Sie diese Nachricht bitte als gegenstandslos.",
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
    dues: {
      line: "{name}, dal {date}",
      membership: "Quota sociale",
      credit: "Credito di segnalazione",
      attached: "La nostra fattura {number} di {amount}, da pagare entro il {due}, è allegata (PDF): potete anche rinnovare pagandola con bonifico.",
    },
    dunning: {
      subject: {
        first: "Promemoria: fattura {number} di {club}",
        again: "2° sollecito: fattura {number} di {club}",
        last: "Ultimo sollecito: fattura {number} di {club}",
      },
      body: "Salvo errore da parte nostra, la nostra fattura {number}, scaduta il {due}, non è ancora pagata: restano da pagare {amount}. La trovate di nuovo in allegato (PDF).",
      fee: "Sono state aggiunte spese di sollecito di {fee}.",
      feeLine: "Spese di sollecito",
      suspended: "La vostra adesione è sospesa fino al pagamento.",
      crossed: "Se avete pagato nel frattempo, non tenete conto di questo messaggio.",
    },
  },
};
