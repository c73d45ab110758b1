// The texts of the dashboard's finances page (dashboard/pages/finances.tsx): the ledger, the
// period's totals by account and the journal's exports, in the four languages a club can choose.
import type { Plural } from "./dashboard";
import type { Locale } from "./messages";

export type FinancesTexts = {
  intro: string;
  filters: string;
  from: string;
  to: string;
  kind: string;
  anyKind: string;
  kinds: Record<"membership" | "event" | "refund" | "other", string>;
  method: string;
  filter: string;
  reset: string;
  totals: string;
  gross: string;
  fees: string;
  commission: string;
  net: string;
  /** How many payments the filter keeps (`{n}`). */
  found: Plural;
  ledger: string;
  date: string;
  description: string;
  amount: string;
  empty: string;
  accounts: string;
  accountsHint: string;
  account: string;
  accountName: string;
  /** The events account's name while the club gives it none (its default, SPEC: an empty string). */
  eventsAccountName: string;
  debit: string;
  credit: string;
  balance: string;
  noLines: string;
  exports: string;
  exportsHint: string;
  /** Shown instead of the exports and the totals by account when the period lacks an end. */
  needsPeriod: string;
  formats: Record<"csv" | "banana" | "datev" | "json", string>;
};

export const FINANCES_TEXTS: Record<Locale, FinancesTexts> = {
  fr: {
    intro: "Chaque paiement reçu, remboursements compris, et le journal à importer dans votre comptabilité. Jours en UTC.",
    filters: "Filtrer",
    from: "Du",
    to: "Au",
    kind: "Type",
    anyKind: "Tous",
    kinds: { membership: "Cotisation", event: "Billet", refund: "Remboursement", other: "Autre" },
    method: "Moyen de paiement",
    filter: "Filtrer",
    reset: "Tout afficher",
    totals: "Totaux",
    gross: "Brut",
    fees: "Frais de paiement",
    commission: "Commission",
    net: "Net",
    found: { one: "{n} paiement", other: "{n} paiements" },
    ledger: "Paiements",
    date: "Date",
    description: "Libellé",
    amount: "Montant",
    empty: "Aucun paiement pour ce filtre.",
    accounts: "Totaux par compte",
    accountsHint: "Les écritures de la période (tous types), sur les comptes des réglages ; les soldes s'annulent.",
    account: "Compte",
    accountName: "Nom",
    eventsAccountName: "Événements",
    debit: "Débit",
    credit: "Crédit",
    balance: "Solde",
    noLines: "Aucune écriture sur la période.",
    exports: "Exporter le journal",
    exportsHint: "Les écritures de la période, pour votre fiduciaire ou votre logiciel comptable.",
    needsPeriod: "Les totaux par compte et les exports du journal portent sur une période : choisissez une date « Du » et une date « Au ».",
    formats: { csv: "CSV", banana: "Banana", datev: "DATEV", json: "JSON" },
  },
  en: {
    intro: "Every payment received, refunds included, and the journal to import into your accounts. Days are UTC.",
    filters: "Filter",
    from: "From",
    to: "To",
    kind: "Kind",
    anyKind: "All",
    kinds: { membership: "Membership", event: "Ticket", refund: "Refund", other: "Other" },
    method: "Payment method",
    filter: "Filter",
    reset: "Show all",
    totals: "Totals",
    gross: "Gross",
    fees: "Payment fees",
    commission: "Commission",
    net: "Net",
    found: { one: "{n} payment", other: "{n} payments" },
    ledger: "Payments",
    date: "Date",
    description: "Description",
    amount: "Amount",
    empty: "No payment for this filter.",
    accounts: "Totals by account",
    accountsHint: "The period's entries (every kind), on the accounts of the settings; the balances cancel out.",
    account: "Account",
    accountName: "Name",
    eventsAccountName: "Events",
    debit: "Debit",
    credit: "Credit",
    balance: "Balance",
    noLines: "No entry in the period.",
    exports: "Export the journal",
    exportsHint: "The period's entries, for your accountant or your accounting software.",
    needsPeriod: "The totals by account and the journal's exports cover a period: choose a “From” and a “To” date.",
    formats: { csv: "CSV", banana: "Banana", datev: "DATEV", json: "JSON" },
  },
  de: {
    intro: "Jede erhaltene Zahlung, Rückerstattungen eingeschlossen, und das Journal für Ihre Buchhaltung. Tage in UTC.",
    filters: "Filtern",
    from: "Von",
    to: "Bis",
    kind: "Art",
    anyKind: "Alle",
    kinds: { membership: "Mitgliederbeitrag", event: "Ticket", refund: "Rückerstattung", other: "Andere" },
    method: "Zahlungsart",
    filter: "Filtern",
    reset: "Alle anzeigen",
    totals: "Summen",
    gross: "Brutto",
    fees: "Zahlungsgebühren",
    commission: "Provision",
    net: "Netto",
    found: { one: "{n} Zahlung", other: "{n} Zahlungen" },
    ledger: "Zahlungen",
    date: "Datum",
    description: "Buchungstext",
    amount: "Betrag",
    empty: "Keine Zahlung für diesen Filter.",
    accounts: "Summen je Konto",
    accountsHint: "Die Buchungen des Zeitraums (jede Art) auf den Konten der Einstellungen; die Salden heben sich auf.",
    account: "Konto",
    accountName: "Name",
    eventsAccountName: "Anlässe",
    debit: "Soll",
    credit: "Haben",
    balance: "Saldo",
    noLines: "Keine Buchung im Zeitraum.",
    exports: "Journal exportieren",
    exportsHint: "Die Buchungen des Zeitraums, für Ihre Treuhand oder Ihre Buchhaltungssoftware.",
    needsPeriod: "Die Summen pro Konto und die Exporte des Journals gelten für einen Zeitraum: Wählen Sie ein Datum „Von“ und ein Datum „Bis“.",
    formats: { csv: "CSV", banana: "Banana", datev: "DATEV", json: "JSON" },
  },
  it: {
    intro: "Ogni pagamento ricevuto, rimborsi compresi, e il giornale da importare nella contabilità. Giorni in UTC.",
    filters: "Filtra",
    from: "Dal",
    to: "Al",
    kind: "Tipo",
    anyKind: "Tutti",
    kinds: { membership: "Quota", event: "Biglietto", refund: "Rimborso", other: "Altro" },
    method: "Metodo di pagamento",
    filter: "Filtra",
    reset: "Mostra tutto",
    totals: "Totali",
    gross: "Lordo",
    fees: "Commissioni di pagamento",
    commission: "Commissione",
    net: "Netto",
    found: { one: "{n} pagamento", other: "{n} pagamenti" },
    ledger: "Pagamenti",
    date: "Data",
    description: "Descrizione",
    amount: "Importo",
    empty: "Nessun pagamento per questo filtro.",
    accounts: "Totali per conto",
    accountsHint: "Le registrazioni del periodo (ogni tipo), sui conti delle impostazioni; i saldi si annullano.",
    account: "Conto",
    accountName: "Nome",
    eventsAccountName: "Eventi",
    debit: "Dare",
    credit: "Avere",
    balance: "Saldo",
    noLines: "Nessuna registrazione nel periodo.",
    exports: "Esporta il giornale",
    exportsHint: "Le registrazioni del periodo, per la fiduciaria o il software contabile.",
    needsPeriod: "I totali per conto e le esportazioni del giornale riguardano un periodo: scegli una data «Dal» e una data «Al».",
    formats: { csv: "CSV", banana: "Banana", datev: "DATEV", json: "JSON" },
  },
};
