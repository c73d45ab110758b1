// The texts of the dashboard's invoices page (dashboard/pages/invoices.tsx) and of the invoices
// section of a member's page (dashboard/pages/member.tsx), in the four languages a club can choose.
// Placeholders: {number}, {name}, {currency}, {n}.
import type { Plural } from "./dashboard";
import type { Locale } from "./messages";

export const INVOICE_TABS = ["open", "overdue", "paid", "cancelled", "all"] as const;
export type InvoicesTab = (typeof INVOICE_TABS)[number];

export type InvoicesTexts = {
  intro: string;
  /** How an invoice gets paid: by the bank statement (uploaded on its page, the link after `paidBy`), or by hand on the member's page. */
  paidBy: string;
  byHand: string;
  /** A membership invoice's link to the member page's "record a payment" (`{number}`: the accessible name). */
  recordPayment: string;
  recordPaymentOf: string;
  tabsLabel: string;
  tabs: Record<InvoicesTab, string>;
  /** How many invoices the tab holds (`{n}`). */
  found: Plural;
  empty: string;
  number: string;
  member: string;
  issued: string;
  due: string;
  amount: string;
  paid: string;
  status: string;
  dunning: string;
  actions: string;
  /** An invoice's state as a badge: `overdue` is an open one past its due date. */
  states: Record<"open" | "overdue" | "paid" | "cancelled", string>;
  /** The member of an invoice, erased since. */
  erased: string;
  pdf: string;
  /** The accessible names of a row's link and buttons. */
  pdfOf: string;
  send: string;
  sendOf: string;
  cancel: string;
  cancelOf: string;
  cancelConfirm: string;
  add: string;
  newTitle: string;
  newFor: string;
  /** Choosing the member of a new invoice (a search among the members). */
  chooseMember: string;
  search: string;
  searchButton: string;
  choose: string;
  noMatch: string;
  otherMember: string;
  tier: string;
  noTier: string;
  tierHint: string;
  lines: string;
  linesHint: string;
  label: string;
  lineAmount: string;
  dueOn: string;
  dueHint: string;
  create: string;
  done: Record<"created" | "sent" | "cancelled", string>;
  /** The member page's section. */
  memberInvoices: string;
  memberNone: string;
  /** The dues run (POST invoices/run): its form, its dry run, its result. */
  run: DuesRunTexts;
};

export type DuesRunTexts = {
  /** The list's button and the page's title. */
  title: string;
  intro: string;
  until: string;
  untilHint: string;
  tiers: string;
  tiersHint: string;
  preview: string;
  /** The dry run's heading: how many it would make (`{n}`). */
  wouldMake: Plural;
  /** The button that runs it for real. */
  make: Plural;
  /** The result's heading (`{n}`). */
  made: Plural;
  nothing: string;
  totals: string;
  skipped: string;
  skippedReasons: Record<"nothing_to_pay" | "already_invoiced" | "over_limit", Plural>;
  sample: string;
  sampleMore: string;
  periodFrom: string;
  openTab: string;
  other: string;
  back: string;
};

export const INVOICES_TEXTS: Record<Locale, InvoicesTexts> = {
  fr: {
    intro: "Les factures du club, avec leur PDF et sa partie paiement (QR-facture).",
    paidBy: "Elles sont réglées par les lignes du relevé bancaire (le fichier camt.053, camt.054 ou CSV de la banque) qui citent leur référence.",
    byHand:
      "Une cotisation reçue autrement (en espèces, par exemple) se saisit à la main : « Enregistrer un paiement » sur la page du membre, qui règle sa facture de cotisation ouverte.",
    recordPayment: "Enregistrer un paiement",
    recordPaymentOf: "Enregistrer un paiement pour la facture {number}",
    tabsLabel: "Factures à afficher",
    tabs: { open: "Ouvertes", overdue: "En retard", paid: "Payées", cancelled: "Annulées", all: "Toutes" },
    found: { one: "{n} facture", other: "{n} factures" },
    empty: "Aucune facture ici.",
    number: "N°",
    member: "Membre",
    issued: "Émise le",
    due: "Échéance",
    amount: "Montant",
    paid: "Payé",
    status: "État",
    dunning: "Rappel",
    actions: "Actions",
    states: { open: "Ouverte", overdue: "En retard", paid: "Payée", cancelled: "Annulée" },
    erased: "(membre effacé)",
    pdf: "PDF",
    pdfOf: "PDF de la facture {number}",
    send: "Envoyer",
    sendOf: "Envoyer la facture {number} au membre",
    cancel: "Annuler",
    cancelOf: "Annuler la facture {number}",
    cancelConfirm: "Annuler la facture {number} ? Elle ne sera plus rappelée ni payable.",
    add: "Nouvelle facture",
    newTitle: "Nouvelle facture",
    newFor: "Nouvelle facture pour {name}",
    chooseMember: "Pour quel membre ?",
    search: "Nom ou e-mail",
    searchButton: "Chercher",
    choose: "Choisir",
    noMatch: "Aucun membre ne correspond.",
    otherMember: "Choisir un autre membre",
    tier: "Cotisation d'une catégorie",
    noTier: "Aucune",
    tierHint: "Son nom et son prix deviennent la première ligne.",
    lines: "Lignes",
    linesHint: "Un libellé et un montant par ligne (négatif pour un rabais) ; les lignes vides sont ignorées.",
    label: "Libellé",
    lineAmount: "Montant {n} ({currency})",
    dueOn: "Échéance",
    dueHint: "Par défaut : 30 jours après aujourd'hui.",
    create: "Créer la facture",
    done: { created: "Facture créée.", sent: "Facture envoyée au membre.", cancelled: "Facture annulée." },
    memberInvoices: "Factures",
    memberNone: "Aucune facture.",
    run: {
      title: "Facturer les cotisations",
      intro:
        "Une facture de cotisation pour chaque membre dont l'adhésion se termine avant la date choisie et qui n'en a pas déjà une pour cette période. On voit d'abord ce qui serait créé ; rien n'est écrit avant de confirmer.",
      until: "Adhésions se terminant avant le",
      untilHint: "Par exemple le premier jour de la nouvelle saison.",
      tiers: "Catégories",
      tiersHint: "Aucune cochée : tous les membres.",
      preview: "Voir ce qui serait créé",
      wouldMake: { one: "{n} facture serait créée", other: "{n} factures seraient créées" },
      make: { one: "Créer {n} facture", other: "Créer {n} factures" },
      made: { one: "{n} facture créée", other: "{n} factures créées" },
      nothing: "Aucun membre à facturer avant cette date.",
      totals: "Total",
      skipped: "Sans facture",
      skippedReasons: {
        nothing_to_pay: { one: "{n} membre n'a rien à payer", other: "{n} membres n'ont rien à payer" },
        already_invoiced: { one: "{n} membre a déjà une facture pour cette période", other: "{n} membres ont déjà une facture pour cette période" },
        over_limit: {
          one: "{n} membre a une cotisation trop élevée pour une facture (à facturer à la main)",
          other: "{n} membres ont une cotisation trop élevée pour une facture (à facturer à la main)",
        },
      },
      sample: "Premières factures",
      sampleMore: "Les 20 premières, par fin d'adhésion.",
      periodFrom: "Période dès le",
      openTab: "Voir les factures ouvertes",
      other: "Changer la date ou les catégories",
      back: "Retour aux factures",
    },
  },
  en: {
    intro: "The club's invoices, with their PDF and its payment part (QR-bill).",
    paidBy: "They are paid by the lines of the bank statement (the bank's camt.053, camt.054 or CSV file) that quote their reference.",
    byHand:
      "A membership paid another way (in cash, say) is recorded by hand: “Record a payment” on the member's page, which pays their open membership invoice.",
    recordPayment: "Record a payment",
    recordPaymentOf: "Record a payment for invoice {number}",
    tabsLabel: "Invoices to show",
    tabs: { open: "Open", overdue: "Overdue", paid: "Paid", cancelled: "Cancelled", all: "All" },
    found: { one: "{n} invoice", other: "{n} invoices" },
    empty: "No invoice here.",
    number: "No.",
    member: "Member",
    issued: "Issued",
    due: "Due",
    amount: "Amount",
    paid: "Paid",
    status: "Status",
    dunning: "Reminder",
    actions: "Actions",
    states: { open: "Open", overdue: "Overdue", paid: "Paid", cancelled: "Cancelled" },
    erased: "(member erased)",
    pdf: "PDF",
    pdfOf: "PDF of invoice {number}",
    send: "Send",
    sendOf: "Send invoice {number} to the member",
    cancel: "Cancel",
    cancelOf: "Cancel invoice {number}",
    cancelConfirm: "Cancel invoice {number}? It will no longer be reminded or payable.",
    add: "New invoice",
    newTitle: "New invoice",
    newFor: "New invoice for {name}",
    chooseMember: "For which member?",
    search: "Name or email",
    searchButton: "Search",
    choose: "Choose",
    noMatch: "No member matches.",
    otherMember: "Choose another member",
    tier: "A tier's fee",
    noTier: "None",
    tierHint: "Its name and price become the first line.",
    lines: "Lines",
    linesHint: "A label and an amount per line (negative for a discount); empty lines are left out.",
    label: "Label",
    lineAmount: "Amount {n} ({currency})",
    dueOn: "Due date",
    dueHint: "By default: 30 days from today.",
    create: "Create the invoice",
    done: { created: "Invoice created.", sent: "Invoice sent to the member.", cancelled: "Invoice cancelled." },
    memberInvoices: "Invoices",
    memberNone: "No invoice.",
    run: {
      title: "Invoice the dues",
      intro:
        "A membership invoice for each member whose membership ends before the chosen day and who has none for that period yet. You see first what would be made; nothing is written until you confirm.",
      until: "Memberships ending before",
      untilHint: "For instance the first day of the new season.",
      tiers: "Tiers",
      tiersHint: "None ticked: every member.",
      preview: "See what would be made",
      wouldMake: { one: "{n} invoice would be made", other: "{n} invoices would be made" },
      make: { one: "Make {n} invoice", other: "Make {n} invoices" },
      made: { one: "{n} invoice made", other: "{n} invoices made" },
      nothing: "No member to invoice before this day.",
      totals: "Total",
      skipped: "Without an invoice",
      skippedReasons: {
        nothing_to_pay: { one: "{n} member has nothing to pay", other: "{n} members have nothing to pay" },
        already_invoiced: { one: "{n} member already has an invoice for that period", other: "{n} members already have an invoice for that period" },
        over_limit: {
          one: "{n} member's fee is above what an invoice takes (invoice by hand)",
          other: "{n} members' fees are above what an invoice takes (invoice by hand)",
        },
      },
      sample: "First invoices",
      sampleMore: "The first 20, by membership end.",
      periodFrom: "Period from",
      openTab: "See the open invoices",
      other: "Change the day or the tiers",
      back: "Back to the invoices",
    },
  },
  de: {
    intro: "Die Rechnungen des Vereins, mit ihrem PDF und dem Zahlteil (QR-Rechnung).",
    paidBy: "Bezahlt werden sie durch die Zeilen des Kontoauszugs (die Datei camt.053, camt.054 oder CSV der Bank), die ihre Referenz nennen.",
    byHand:
      "Ein anders bezahlter Mitgliederbeitrag (etwa bar) wird von Hand erfasst: „Zahlung erfassen“ auf der Seite des Mitglieds, was seine offene Beitragsrechnung bezahlt.",
    recordPayment: "Zahlung erfassen",
    recordPaymentOf: "Zahlung für Rechnung {number} erfassen",
    tabsLabel: "Anzuzeigende Rechnungen",
    tabs: { open: "Offen", overdue: "Überfällig", paid: "Bezahlt", cancelled: "Storniert", all: "Alle" },
    found: { one: "{n} Rechnung", other: "{n} Rechnungen" },
    empty: "Keine Rechnung hier.",
    number: "Nr.",
    member: "Mitglied",
    issued: "Ausgestellt",
    due: "Fällig",
    amount: "Betrag",
    paid: "Bezahlt",
    status: "Status",
    dunning: "Mahnstufe",
    actions: "Aktionen",
    states: { open: "Offen", overdue: "Überfällig", paid: "Bezahlt", cancelled: "Storniert" },
    erased: "(Mitglied gelöscht)",
    pdf: "PDF",
    pdfOf: "PDF der Rechnung {number}",
    send: "Senden",
    sendOf: "Rechnung {number} an das Mitglied senden",
    cancel: "Stornieren",
    cancelOf: "Rechnung {number} stornieren",
    cancelConfirm: "Rechnung {number} stornieren? Sie wird weder gemahnt noch bezahlt werden können.",
    add: "Neue Rechnung",
    newTitle: "Neue Rechnung",
    newFor: "Neue Rechnung für {name}",
    chooseMember: "Für welches Mitglied?",
    search: "Name oder E-Mail",
    searchButton: "Suchen",
    choose: "Wählen",
    noMatch: "Kein Mitglied passt.",
    otherMember: "Ein anderes Mitglied wählen",
    tier: "Beitrag einer Kategorie",
    noTier: "Keiner",
    tierHint: "Ihr Name und Preis werden die erste Zeile.",
    lines: "Zeilen",
    linesHint: "Eine Bezeichnung und ein Betrag pro Zeile (negativ für einen Rabatt); leere Zeilen werden übergangen.",
    label: "Bezeichnung",
    lineAmount: "Betrag {n} ({currency})",
    dueOn: "Fällig am",
    dueHint: "Standard: 30 Tage ab heute.",
    create: "Rechnung erstellen",
    done: { created: "Rechnung erstellt.", sent: "Rechnung an das Mitglied gesendet.", cancelled: "Rechnung storniert." },
    memberInvoices: "Rechnungen",
    memberNone: "Keine Rechnung.",
    run: {
      title: "Beiträge in Rechnung stellen",
      intro:
        "Eine Beitragsrechnung für jedes Mitglied, dessen Mitgliedschaft vor dem gewählten Tag endet und das für diese Periode noch keine hat. Zuerst sehen Sie, was erstellt würde; geschrieben wird erst nach Ihrer Bestätigung.",
      until: "Mitgliedschaften, die enden vor dem",
      untilHint: "Zum Beispiel der erste Tag der neuen Saison.",
      tiers: "Kategorien",
      tiersHint: "Keine angekreuzt: alle Mitglieder.",
      preview: "Anzeigen, was erstellt würde",
      wouldMake: { one: "{n} Rechnung würde erstellt", other: "{n} Rechnungen würden erstellt" },
      make: { one: "{n} Rechnung erstellen", other: "{n} Rechnungen erstellen" },
      made: { one: "{n} Rechnung erstellt", other: "{n} Rechnungen erstellt" },
      nothing: "Kein Mitglied vor diesem Tag in Rechnung zu stellen.",
      totals: "Total",
      skipped: "Ohne Rechnung",
      skippedReasons: {
        nothing_to_pay: { one: "{n} Mitglied hat nichts zu zahlen", other: "{n} Mitglieder haben nichts zu zahlen" },
        already_invoiced: {
          one: "{n} Mitglied hat für diese Periode schon eine Rechnung",
          other: "{n} Mitglieder haben für diese Periode schon eine Rechnung",
        },
        over_limit: {
          one: "{n} Mitglied hat einen zu hohen Beitrag für eine Rechnung (von Hand verrechnen)",
          other: "{n} Mitglieder haben einen zu hohen Beitrag für eine Rechnung (von Hand verrechnen)",
        },
      },
      sample: "Erste Rechnungen",
      sampleMore: "Die ersten 20, nach Ende der Mitgliedschaft.",
      periodFrom: "Periode ab",
      openTab: "Offene Rechnungen anzeigen",
      other: "Tag oder Kategorien ändern",
      back: "Zurück zu den Rechnungen",
    },
  },
  it: {
    intro: "Le fatture del club, con il loro PDF e la sezione di pagamento (QR-fattura).",
    paidBy: "Sono pagate dalle righe dell'estratto conto (il file camt.053, camt.054 o CSV della banca) che citano il loro riferimento.",
    byHand:
      "Una quota pagata in altro modo (in contanti, per esempio) si registra a mano: «Registra un pagamento» nella pagina del socio, che paga la sua fattura di quota aperta.",
    recordPayment: "Registra un pagamento",
    recordPaymentOf: "Registra un pagamento per la fattura {number}",
    tabsLabel: "Fatture da mostrare",
    tabs: { open: "Aperte", overdue: "Scadute", paid: "Pagate", cancelled: "Annullate", all: "Tutte" },
    found: { one: "{n} fattura", other: "{n} fatture" },
    empty: "Nessuna fattura qui.",
    number: "N.",
    member: "Socio",
    issued: "Emessa il",
    due: "Scadenza",
    amount: "Importo",
    paid: "Pagato",
    status: "Stato",
    dunning: "Sollecito",
    actions: "Azioni",
    states: { open: "Aperta", overdue: "Scaduta", paid: "Pagata", cancelled: "Annullata" },
    erased: "(socio cancellato)",
    pdf: "PDF",
    pdfOf: "PDF della fattura {number}",
    send: "Invia",
    sendOf: "Invia la fattura {number} al socio",
    cancel: "Annulla",
    cancelOf: "Annulla la fattura {number}",
    cancelConfirm: "Annullare la fattura {number}? Non sarà più sollecitata né pagabile.",
    add: "Nuova fattura",
    newTitle: "Nuova fattura",
    newFor: "Nuova fattura per {name}",
    chooseMember: "Per quale socio?",
    search: "Nome o e-mail",
    searchButton: "Cerca",
    choose: "Scegli",
    noMatch: "Nessun socio corrisponde.",
    otherMember: "Scegli un altro socio",
    tier: "Quota di una categoria",
    noTier: "Nessuna",
    tierHint: "Il suo nome e prezzo diventano la prima riga.",
    lines: "Righe",
    linesHint: "Una descrizione e un importo per riga (negativo per uno sconto); le righe vuote sono ignorate.",
    label: "Descrizione",
    lineAmount: "Importo {n} ({currency})",
    dueOn: "Scadenza",
    dueHint: "Predefinita: 30 giorni da oggi.",
    create: "Crea la fattura",
    done: { created: "Fattura creata.", sent: "Fattura inviata al socio.", cancelled: "Fattura annullata." },
    memberInvoices: "Fatture",
    memberNone: "Nessuna fattura.",
    run: {
      title: "Fatturare le quote",
      intro:
        "Una fattura della quota per ogni socio la cui adesione termina prima del giorno scelto e che non ne ha ancora una per quel periodo. Prima si vede cosa verrebbe creato; nulla è scritto prima della conferma.",
      until: "Adesioni che terminano prima del",
      untilHint: "Per esempio il primo giorno della nuova stagione.",
      tiers: "Categorie",
      tiersHint: "Nessuna spuntata: tutti i soci.",
      preview: "Vedere cosa verrebbe creato",
      wouldMake: { one: "{n} fattura verrebbe creata", other: "{n} fatture verrebbero create" },
      make: { one: "Creare {n} fattura", other: "Creare {n} fatture" },
      made: { one: "{n} fattura creata", other: "{n} fatture create" },
      nothing: "Nessun socio da fatturare prima di questo giorno.",
      totals: "Totale",
      skipped: "Senza fattura",
      skippedReasons: {
        nothing_to_pay: { one: "{n} socio non ha nulla da pagare", other: "{n} soci non hanno nulla da pagare" },
        already_invoiced: { one: "{n} socio ha già una fattura per quel periodo", other: "{n} soci hanno già una fattura per quel periodo" },
        over_limit: {
          one: "{n} socio ha una quota troppo alta per una fattura (da fatturare a mano)",
          other: "{n} soci hanno una quota troppo alta per una fattura (da fatturare a mano)",
        },
      },
      sample: "Prime fatture",
      sampleMore: "Le prime 20, per fine dell'adesione.",
      periodFrom: "Periodo dal",
      openTab: "Vedere le fatture aperte",
      other: "Cambiare il giorno o le categorie",
      back: "Torna alle fatture",
    },
  },
};
