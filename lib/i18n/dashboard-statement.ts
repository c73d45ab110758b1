// The texts of the dashboard's bank statement page (dashboard/pages/payments-import.tsx), in the
// four languages a club can choose. Placeholders: {n}, {format}, {lines}, {recorded}, {before},
// {unmatched}, {paid}, {total}, {name}, {id}, {number}.
import type { Plural } from "./dashboard";
import type { Locale } from "./messages";

export type StatementTexts = {
  /** The page's title, and the links to it from the invoices and finances pages. */
  title: string;
  intro: string;
  file: string;
  fileHint: string;
  submit: string;
  /** The form sent without a file. */
  chooseFile: string;
  /** The result's heading: something recorded, or nothing new. */
  doneTitle: string;
  nothingTitle: string;
  /** How many lines the file holds (`{n}`). */
  lines: Plural;
  summary: string;
  invoicesPaid: string;
  othersPaid: string;
  overpaid: string;
  overpaidHint: string;
  before: string;
  beforeHint: string;
  unmatched: string;
  unmatchedHint: string;
  line: string;
  date: string;
  invoice: string;
  member: string;
  amount: string;
  invoiceNow: string;
  paidFor: string;
  reference: string;
  counterparty: string;
  reason: string;
  received: string;
  invoiced: string;
  over: string;
  nowPaid: string;
  nowPartly: string;
  membership: string;
  registration: string;
  payout: string;
  toInvoices: string;
};

export const STATEMENT_TEXTS: Record<Locale, StatementTexts> = {
  fr: {
    title: "Importer un relevé bancaire",
    intro:
      "Le fichier que l'e-banking de la banque fournit : camt.054 (avis de crédit des QR-factures), camt.053 (relevé de compte) ou CSV (date, montant, devise, référence, payeur). Chaque ligne qui cite la référence QR ou RF d'une facture ouverte est enregistrée sur elle, quel que soit le montant : un acompte la laisse ouverte, le solde la paie. Rien n'est deviné ; une ligne n'est enregistrée qu'une fois, même si le fichier est importé à nouveau.",
    file: "Fichier du relevé (camt.053, camt.054 ou CSV)",
    fileHint: "Tel que la banque le fournit ; les lignes déjà importées ne sont pas comptées deux fois.",
    submit: "Importer le relevé",
    chooseFile: "Choisissez le fichier du relevé.",
    doneTitle: "Relevé importé",
    nothingTitle: "Rien de nouveau enregistré",
    lines: { one: "{n} ligne", other: "{n} lignes" },
    summary: "{lines} dans le fichier ({format}). Enregistrées : {recorded}. Déjà importées : {before}. Non rapprochées : {unmatched}.",
    invoicesPaid: "Factures payées par ce relevé",
    othersPaid: "Autres paiements enregistrés",
    overpaid: "Trop-perçus",
    overpaidHint: "L'argent est enregistré sur la facture, rien n'est perdu : remboursez la différence au membre ou convenez avec lui de la garder.",
    before: "Lignes déjà importées",
    beforeHint: "Enregistrées lors d'un import précédent : pas comptées deux fois.",
    unmatched: "Lignes non rapprochées",
    unmatchedHint:
      "Rien n'a été enregistré pour ces lignes. Un paiement qui est bien au club se saisit à la main : « Enregistrer un paiement » sur la page du membre.",
    line: "Ligne",
    date: "Date",
    invoice: "Facture",
    member: "Membre",
    amount: "Montant",
    invoiceNow: "Facture maintenant",
    paidFor: "Payé pour",
    reference: "Référence",
    counterparty: "Payeur",
    reason: "Raison",
    received: "Reçu en tout",
    invoiced: "Facturé",
    over: "De trop",
    nowPaid: "Payée",
    nowPartly: "Partiellement payée : {paid} sur {total}",
    membership: "Cotisation de {name}",
    registration: "Inscription à un événement",
    payout: "Versement Stripe {id}",
    toInvoices: "Voir les factures",
  },
  en: {
    title: "Import a bank statement",
    intro:
      "The file the bank's e-banking gives you: camt.054 (credit notification of QR-bills), camt.053 (account statement) or CSV (date, amount, currency, reference, counterparty). Each line quoting the QR or RF reference of an open invoice is recorded on it, whatever the amount: a part leaves it open, the rest pays it. Nothing is guessed; a line is recorded once, even when the file is imported again.",
    file: "Statement file (camt.053, camt.054 or CSV)",
    fileHint: "As the bank gives it; lines imported before are not counted twice.",
    submit: "Import the statement",
    chooseFile: "Choose the statement file.",
    doneTitle: "Statement imported",
    nothingTitle: "Nothing new recorded",
    lines: { one: "{n} line", other: "{n} lines" },
    summary: "{lines} in the file ({format}). Recorded: {recorded}. Imported before: {before}. Not matched: {unmatched}.",
    invoicesPaid: "Invoices paid by this statement",
    othersPaid: "Other payments recorded",
    overpaid: "Overpayments",
    overpaidHint: "The money is recorded on the invoice, nothing is lost: refund the difference to the member, or agree with them to keep it.",
    before: "Lines imported before",
    beforeHint: "Recorded by an earlier import: not counted twice.",
    unmatched: "Lines not matched",
    unmatchedHint: "Nothing was recorded for these lines. A payment that is the club's is recorded by hand: “Record a payment” on the member's page.",
    line: "Line",
    date: "Date",
    invoice: "Invoice",
    member: "Member",
    amount: "Amount",
    invoiceNow: "Invoice now",
    paidFor: "Paid for",
    reference: "Reference",
    counterparty: "Counterparty",
    reason: "Reason",
    received: "Received in all",
    invoiced: "Invoiced",
    over: "Over",
    nowPaid: "Paid",
    nowPartly: "Partly paid: {paid} of {total}",
    membership: "Membership of {name}",
    registration: "Event registration",
    payout: "Stripe payout {id}",
    toInvoices: "See the invoices",
  },
  de: {
    title: "Kontoauszug importieren",
    intro:
      "Die Datei aus dem E-Banking der Bank: camt.054 (Gutschriftsanzeige der QR-Rechnungen), camt.053 (Kontoauszug) oder CSV (Datum, Betrag, Währung, Referenz, Auftraggeber). Jede Zeile mit der QR- oder RF-Referenz einer offenen Rechnung wird auf ihr erfasst, welcher Betrag auch immer: eine Teilzahlung lässt sie offen, der Rest bezahlt sie. Nichts wird geraten; eine Zeile wird nur einmal erfasst, auch wenn die Datei erneut importiert wird.",
    file: "Datei des Auszugs (camt.053, camt.054 oder CSV)",
    fileHint: "So, wie die Bank sie liefert; bereits importierte Zeilen werden nicht doppelt gezählt.",
    submit: "Auszug importieren",
    chooseFile: "Wählen Sie die Datei des Auszugs.",
    doneTitle: "Auszug importiert",
    nothingTitle: "Nichts Neues erfasst",
    lines: { one: "{n} Zeile", other: "{n} Zeilen" },
    summary: "{lines} in der Datei ({format}). Erfasst: {recorded}. Bereits importiert: {before}. Nicht zugeordnet: {unmatched}.",
    invoicesPaid: "Mit diesem Auszug bezahlte Rechnungen",
    othersPaid: "Weitere erfasste Zahlungen",
    overpaid: "Überzahlungen",
    overpaidHint:
      "Das Geld ist auf der Rechnung erfasst, nichts geht verloren: Erstatten Sie dem Mitglied die Differenz oder vereinbaren Sie, sie zu behalten.",
    before: "Bereits importierte Zeilen",
    beforeHint: "Bei einem früheren Import erfasst: nicht doppelt gezählt.",
    unmatched: "Nicht zugeordnete Zeilen",
    unmatchedHint: "Für diese Zeilen wurde nichts erfasst. Eine Zahlung an den Verein wird von Hand erfasst: „Zahlung erfassen“ auf der Seite des Mitglieds.",
    line: "Zeile",
    date: "Datum",
    invoice: "Rechnung",
    member: "Mitglied",
    amount: "Betrag",
    invoiceNow: "Rechnung jetzt",
    paidFor: "Bezahlt für",
    reference: "Referenz",
    counterparty: "Auftraggeber",
    reason: "Grund",
    received: "Insgesamt erhalten",
    invoiced: "In Rechnung gestellt",
    over: "Zu viel",
    nowPaid: "Bezahlt",
    nowPartly: "Teilweise bezahlt: {paid} von {total}",
    membership: "Mitgliedschaft von {name}",
    registration: "Anmeldung zu einem Anlass",
    payout: "Stripe-Auszahlung {id}",
    toInvoices: "Zu den Rechnungen",
  },
  it: {
    title: "Importare un estratto conto",
    intro:
      "Il file che l'e-banking della banca fornisce: camt.054 (avviso di accredito delle QR-fatture), camt.053 (estratto conto) o CSV (data, importo, valuta, riferimento, ordinante). Ogni riga che cita il riferimento QR o RF di una fattura aperta viene registrata su di essa, qualunque sia l'importo: un acconto la lascia aperta, il saldo la paga. Nulla viene indovinato; una riga viene registrata una sola volta, anche se il file viene importato di nuovo.",
    file: "File dell'estratto (camt.053, camt.054 o CSV)",
    fileHint: "Così come lo fornisce la banca; le righe già importate non vengono contate due volte.",
    submit: "Importa l'estratto",
    chooseFile: "Scegliete il file dell'estratto.",
    doneTitle: "Estratto importato",
    nothingTitle: "Nulla di nuovo registrato",
    lines: { one: "{n} riga", other: "{n} righe" },
    summary: "{lines} nel file ({format}). Registrate: {recorded}. Già importate: {before}. Non abbinate: {unmatched}.",
    invoicesPaid: "Fatture pagate da questo estratto",
    othersPaid: "Altri pagamenti registrati",
    overpaid: "Pagamenti in eccesso",
    overpaidHint: "Il denaro è registrato sulla fattura, nulla va perso: rimborsate la differenza al socio o concordate con lui di tenerla.",
    before: "Righe già importate",
    beforeHint: "Registrate da un'importazione precedente: non contate due volte.",
    unmatched: "Righe non abbinate",
    unmatchedHint: "Per queste righe non è stato registrato nulla. Un pagamento del club si registra a mano: «Registra un pagamento» nella pagina del socio.",
    line: "Riga",
    date: "Data",
    invoice: "Fattura",
    member: "Socio",
    amount: "Importo",
    invoiceNow: "Fattura ora",
    paidFor: "Pagato per",
    reference: "Riferimento",
    counterparty: "Ordinante",
    reason: "Motivo",
    received: "Ricevuto in tutto",
    invoiced: "Fatturato",
    over: "In eccesso",
    nowPaid: "Pagata",
    nowPartly: "Pagata in parte: {paid} su {total}",
    membership: "Quota di {name}",
    registration: "Iscrizione a un evento",
    payout: "Versamento Stripe {id}",
    toInvoices: "Vedere le fatture",
  },
};
