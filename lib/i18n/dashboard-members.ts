// The texts of the dashboard's members pages (dashboard/pages/members.tsx, member.tsx), in the
// four languages. Placeholders: {count}, {total}, {name}; {n} in a Plural.
import type { Plural } from "./dashboard";
import type { Locale } from "./messages";

type Status = "active" | "expired" | "pending" | "suspended";
export type MemberAction = "extend" | "mark-paid" | "suspend" | "reactivate" | "cancel-subscription" | "approve" | "reject";

export type MembersTexts = {
  status: Record<Status | "all", string>;
  filter: string;
  search: string;
  sort: string;
  sorts: Record<"registered" | "name" | "email" | "membership_end" | "status", string>;
  dir: string;
  asc: string;
  desc: string;
  /** How many members the list found (`{n}`). */
  found: Plural;
  select: string;
  selectAll: string;
  exportCsv: string;
  exportPdf: string;
  exportHint: string;
  add: string;
  import: string;
  name: string;
  firstName: string;
  lastName: string;
  email: string;
  tier: string;
  noTier: string;
  start: string;
  end: string;
  joined: string;
  paymentMethod: string;
  referralCode: string;
  erasureAsked: string;
  awaitingApproval: string;
  empty: string;
  /** The list of a club with no member at all (no search, no filter): the ways to the first ones follow. */
  noneYet: string;
  addTitle: string;
  editTitle: string;
  reason: string;
  reasonHint: string;
  facts: string;
  actions: string;
  edit: string;
  history: string;
  payments: string;
  noHistory: string;
  noPayments: string;
  when: string;
  what: string;
  who: string;
  amount: string;
  method: string;
  months: string;
  action: Record<MemberAction, string>;
  done: Record<MemberAction | "created" | "saved" | "erased" | "send-card", string>;
  /** The card by email (POST .../send-card-email), the member's web card (/c/) and own page (/m/). */
  sendCard: string;
  openCard: string;
  openPage: string;
  cardSent: string;
  cardNeverSent: string;
  /** The empty choice of the payment method (none recorded). */
  noMethod: string;
  erase: string;
  eraseTitle: string;
  eraseText: string;
  eraseConfirm: string;
  eraseButton: string;
  exportData: string;
  /** History kinds (lib/members HISTORY_KINDS_NOTE); an unknown one is shown as stored. */
  kinds: Record<string, string>;
  /** Payment methods; an unknown one is shown as stored. */
  methods: Record<string, string>;
};

export const MEMBERS_TEXTS: Record<Locale, MembersTexts> = {
  fr: {
    status: { all: "Tous", active: "Actif", expired: "Expiré", pending: "En attente", suspended: "Suspendu" },
    filter: "Filtrer",
    search: "Nom, e-mail ou code",
    sort: "Trier par",
    sorts: { registered: "Inscription", name: "Nom", email: "E-mail", membership_end: "Fin d'adhésion", status: "Statut" },
    dir: "Ordre",
    asc: "Croissant",
    desc: "Décroissant",
    found: { one: "{n} membre", other: "{n} membres" },
    select: "Choisir {name}",
    selectAll: "Tout choisir",
    exportCsv: "Exporter en CSV",
    exportPdf: "Exporter en PDF",
    exportHint: "Sans choix, tous les membres sont exportés.",
    add: "Ajouter un membre",
    import: "Importer un fichier",
    name: "Nom",
    firstName: "Prénom",
    lastName: "Nom",
    email: "E-mail",
    tier: "Catégorie",
    noTier: "Aucune",
    start: "Début",
    end: "Fin d'adhésion",
    joined: "Inscrit·e le",
    paymentMethod: "Moyen de paiement",
    referralCode: "Code de membre",
    erasureAsked: "A demandé l'effacement",
    awaitingApproval: "Candidature à examiner",
    empty: "Aucun membre ne correspond.",
    noneYet: "Le club n'a pas encore de membre : ajoutez le premier à la main ou importez votre liste (CSV).",
    addTitle: "Ajouter un membre",
    editTitle: "Modifier {name}",
    reason: "Motif",
    reasonHint: "Obligatoire pour corriger la fin d'adhésion.",
    facts: "Fiche",
    actions: "Actions",
    edit: "Modifier",
    history: "Historique",
    payments: "Paiements",
    noHistory: "Aucun événement.",
    noPayments: "Aucun paiement.",
    when: "Date",
    what: "Quoi",
    who: "Par",
    amount: "Montant",
    method: "Moyen",
    months: "Mois",
    action: {
      extend: "Prolonger",
      "mark-paid": "Enregistrer un paiement",
      suspend: "Suspendre",
      reactivate: "Réactiver",
      "cancel-subscription": "Arrêter le renouvellement automatique",
      approve: "Accepter la candidature",
      reject: "Refuser la candidature",
    },
    done: {
      created: "Membre ajouté.",
      saved: "Modifications enregistrées.",
      erased: "Membre effacé.",
      extend: "Adhésion prolongée.",
      "mark-paid": "Paiement enregistré.",
      suspend: "Membre suspendu.",
      reactivate: "Membre réactivé.",
      "cancel-subscription": "Renouvellement automatique arrêté.",
      approve: "Candidature acceptée.",
      reject: "Candidature refusée.",
      "send-card": "Carte envoyée par e-mail.",
    },
    sendCard: "Envoyer la carte par e-mail",
    openCard: "Ouvrir la carte",
    openPage: "Ouvrir la page du membre",
    cardSent: "Carte envoyée",
    cardNeverSent: "Jamais",
    noMethod: "Aucun",
    erase: "Effacer",
    eraseTitle: "Effacer {name}",
    eraseText:
      "L'effacement (RGPD art. 17) est définitif : nom, e-mail, champs personnalisés, codes et carte sont supprimés. Les paiements restent, rattachés à un membre anonyme.",
    eraseConfirm: "Je comprends que cela ne peut pas être annulé",
    eraseButton: "Effacer définitivement",
    exportData: "Télécharger ses données (JSON)",
    kinds: {
      manual_create: "Ajout manuel",
      import_create: "Import (création)",
      import_update: "Import (mise à jour)",
      update: "Modification",
      correction: "Correction de la fin",
      extend: "Prolongation",
      mark_paid: "Paiement enregistré",
      suspend: "Suspension",
      reactivate: "Réactivation",
      cancel_subscription: "Fin du renouvellement automatique",
      card_email_sent: "Carte envoyée par e-mail",
      payment: "Paiement",
      payment_flagged: "Paiement à vérifier (non appliqué)",
      join: "Adhésion en ligne",
      renew: "Renouvellement",
      approve: "Candidature acceptée",
      reject: "Candidature refusée",
      erase: "Effacement",
      refund: "Remboursement (carte)",
      subscription_ended: "Abonnement par carte terminé",
    },
    methods: { bank_transfer: "Virement", cash: "Espèces", stripe: "Carte (Stripe)", card: "Carte" },
  },
  en: {
    status: { all: "All", active: "Active", expired: "Expired", pending: "Pending", suspended: "Suspended" },
    filter: "Filter",
    search: "Name, email or code",
    sort: "Sort by",
    sorts: { registered: "Registered", name: "Name", email: "Email", membership_end: "Membership end", status: "Status" },
    dir: "Order",
    asc: "Ascending",
    desc: "Descending",
    found: { one: "{n} member", other: "{n} members" },
    select: "Select {name}",
    selectAll: "Select all",
    exportCsv: "Export as CSV",
    exportPdf: "Export as PDF",
    exportHint: "With nothing selected, every member is exported.",
    add: "Add a member",
    import: "Import a file",
    name: "Name",
    firstName: "First name",
    lastName: "Last name",
    email: "Email",
    tier: "Tier",
    noTier: "None",
    start: "Start",
    end: "Membership end",
    joined: "Registered on",
    paymentMethod: "Payment method",
    referralCode: "Member code",
    erasureAsked: "Asked to be erased",
    awaitingApproval: "Application to review",
    empty: "No member matches.",
    noneYet: "The club has no members yet: add the first one by hand or import your list (CSV).",
    addTitle: "Add a member",
    editTitle: "Edit {name}",
    reason: "Reason",
    reasonHint: "Required to correct the membership end.",
    facts: "Details",
    actions: "Actions",
    edit: "Edit",
    history: "History",
    payments: "Payments",
    noHistory: "Nothing yet.",
    noPayments: "No payment.",
    when: "Date",
    what: "What",
    who: "By",
    amount: "Amount",
    method: "Method",
    months: "Months",
    action: {
      extend: "Extend",
      "mark-paid": "Record a payment",
      suspend: "Suspend",
      reactivate: "Reactivate",
      "cancel-subscription": "Stop automatic renewal",
      approve: "Approve the application",
      reject: "Reject the application",
    },
    done: {
      created: "Member added.",
      saved: "Changes saved.",
      erased: "Member erased.",
      extend: "Membership extended.",
      "mark-paid": "Payment recorded.",
      suspend: "Member suspended.",
      reactivate: "Member reactivated.",
      "cancel-subscription": "Automatic renewal stopped.",
      approve: "Application approved.",
      reject: "Application rejected.",
      "send-card": "Card sent by email.",
    },
    sendCard: "Send the card by email",
    openCard: "Open the card",
    openPage: "Open the member's page",
    cardSent: "Card sent",
    cardNeverSent: "Never",
    noMethod: "None",
    erase: "Erase",
    eraseTitle: "Erase {name}",
    eraseText: "Erasure (GDPR art. 17) is final: name, email, custom fields, codes and card are removed. Payments stay, attached to an anonymous member.",
    eraseConfirm: "I understand this cannot be undone",
    eraseButton: "Erase for good",
    exportData: "Download their data (JSON)",
    kinds: {
      manual_create: "Added by hand",
      import_create: "Import (created)",
      import_update: "Import (updated)",
      update: "Edited",
      correction: "End corrected",
      extend: "Extended",
      mark_paid: "Payment recorded",
      suspend: "Suspended",
      reactivate: "Reactivated",
      cancel_subscription: "Automatic renewal stopped",
      card_email_sent: "Card emailed",
      payment: "Payment",
      payment_flagged: "Payment to check (not applied)",
      join: "Joined online",
      renew: "Renewed",
      approve: "Application approved",
      reject: "Application rejected",
      erase: "Erased",
      refund: "Refund (card)",
      subscription_ended: "Card subscription ended",
    },
    methods: { bank_transfer: "Bank transfer", cash: "Cash", stripe: "Card (Stripe)", card: "Card" },
  },
  de: {
    status: { all: "Alle", active: "Aktiv", expired: "Abgelaufen", pending: "Ausstehend", suspended: "Gesperrt" },
    filter: "Filtern",
    search: "Name, E-Mail oder Code",
    sort: "Sortieren nach",
    sorts: { registered: "Anmeldung", name: "Name", email: "E-Mail", membership_end: "Mitgliedschaftsende", status: "Status" },
    dir: "Reihenfolge",
    asc: "Aufsteigend",
    desc: "Absteigend",
    found: { one: "{n} Mitglied", other: "{n} Mitglieder" },
    select: "{name} auswählen",
    selectAll: "Alle auswählen",
    exportCsv: "Als CSV exportieren",
    exportPdf: "Als PDF exportieren",
    exportHint: "Ohne Auswahl werden alle Mitglieder exportiert.",
    add: "Mitglied hinzufügen",
    import: "Datei importieren",
    name: "Name",
    firstName: "Vorname",
    lastName: "Nachname",
    email: "E-Mail",
    tier: "Kategorie",
    noTier: "Keine",
    start: "Beginn",
    end: "Mitgliedschaftsende",
    joined: "Angemeldet am",
    paymentMethod: "Zahlungsart",
    referralCode: "Mitgliedscode",
    erasureAsked: "Hat um Löschung gebeten",
    awaitingApproval: "Antrag zu prüfen",
    empty: "Kein Mitglied entspricht der Suche.",
    noneYet: "Der Club hat noch keine Mitglieder: Fügen Sie das erste von Hand hinzu oder importieren Sie Ihre Liste (CSV).",
    addTitle: "Mitglied hinzufügen",
    editTitle: "{name} bearbeiten",
    reason: "Grund",
    reasonHint: "Nötig, um das Mitgliedschaftsende zu korrigieren.",
    facts: "Angaben",
    actions: "Aktionen",
    edit: "Bearbeiten",
    history: "Verlauf",
    payments: "Zahlungen",
    noHistory: "Noch nichts.",
    noPayments: "Keine Zahlung.",
    when: "Datum",
    what: "Was",
    who: "Von",
    amount: "Betrag",
    method: "Zahlungsart",
    months: "Monate",
    action: {
      extend: "Verlängern",
      "mark-paid": "Zahlung erfassen",
      suspend: "Sperren",
      reactivate: "Reaktivieren",
      "cancel-subscription": "Automatische Verlängerung beenden",
      approve: "Antrag annehmen",
      reject: "Antrag ablehnen",
    },
    done: {
      created: "Mitglied hinzugefügt.",
      saved: "Änderungen gespeichert.",
      erased: "Mitglied gelöscht.",
      extend: "Mitgliedschaft verlängert.",
      "mark-paid": "Zahlung erfasst.",
      suspend: "Mitglied gesperrt.",
      reactivate: "Mitglied reaktiviert.",
      "cancel-subscription": "Automatische Verlängerung beendet.",
      approve: "Antrag angenommen.",
      reject: "Antrag abgelehnt.",
      "send-card": "Karte per E-Mail gesendet.",
    },
    sendCard: "Karte per E-Mail senden",
    openCard: "Karte öffnen",
    openPage: "Seite des Mitglieds öffnen",
    cardSent: "Karte gesendet",
    cardNeverSent: "Nie",
    noMethod: "Keine",
    erase: "Löschen",
    eraseTitle: "{name} löschen",
    eraseText:
      "Die Löschung (DSGVO Art. 17) ist endgültig: Name, E-Mail, Zusatzfelder, Codes und Karte werden entfernt. Zahlungen bleiben, einem anonymen Mitglied zugeordnet.",
    eraseConfirm: "Ich verstehe, dass dies nicht rückgängig gemacht werden kann",
    eraseButton: "Endgültig löschen",
    exportData: "Daten herunterladen (JSON)",
    kinds: {
      manual_create: "Von Hand hinzugefügt",
      import_create: "Import (neu)",
      import_update: "Import (aktualisiert)",
      update: "Bearbeitet",
      correction: "Ende korrigiert",
      extend: "Verlängert",
      mark_paid: "Zahlung erfasst",
      suspend: "Gesperrt",
      reactivate: "Reaktiviert",
      cancel_subscription: "Automatische Verlängerung beendet",
      card_email_sent: "Karte per E-Mail gesendet",
      payment: "Zahlung",
      payment_flagged: "Zahlung zu prüfen (nicht verbucht)",
      join: "Online beigetreten",
      renew: "Erneuert",
      approve: "Antrag angenommen",
      reject: "Antrag abgelehnt",
      erase: "Gelöscht",
      refund: "Rückerstattung (Karte)",
      subscription_ended: "Kartenabonnement beendet",
    },
    methods: { bank_transfer: "Überweisung", cash: "Bar", stripe: "Karte (Stripe)", card: "Karte" },
  },
  it: {
    status: { all: "Tutti", active: "Attivo", expired: "Scaduto", pending: "In attesa", suspended: "Sospeso" },
    filter: "Filtra",
    search: "Nome, e-mail o codice",
    sort: "Ordina per",
    sorts: { registered: "Iscrizione", name: "Nome", email: "E-mail", membership_end: "Fine adesione", status: "Stato" },
    dir: "Ordine",
    asc: "Crescente",
    desc: "Decrescente",
    found: { one: "{n} membro", other: "{n} membri" },
    select: "Seleziona {name}",
    selectAll: "Seleziona tutti",
    exportCsv: "Esporta in CSV",
    exportPdf: "Esporta in PDF",
    exportHint: "Senza selezione, vengono esportati tutti i membri.",
    add: "Aggiungi un membro",
    import: "Importa un file",
    name: "Nome",
    firstName: "Nome",
    lastName: "Cognome",
    email: "E-mail",
    tier: "Categoria",
    noTier: "Nessuna",
    start: "Inizio",
    end: "Fine adesione",
    joined: "Iscritto il",
    paymentMethod: "Metodo di pagamento",
    referralCode: "Codice membro",
    erasureAsked: "Ha chiesto la cancellazione",
    awaitingApproval: "Candidatura da esaminare",
    empty: "Nessun membro corrisponde.",
    noneYet: "Il club non ha ancora membri: aggiungi il primo a mano o importa il tuo elenco (CSV).",
    addTitle: "Aggiungi un membro",
    editTitle: "Modifica {name}",
    reason: "Motivo",
    reasonHint: "Obbligatorio per correggere la fine dell'adesione.",
    facts: "Scheda",
    actions: "Azioni",
    edit: "Modifica",
    history: "Cronologia",
    payments: "Pagamenti",
    noHistory: "Ancora niente.",
    noPayments: "Nessun pagamento.",
    when: "Data",
    what: "Cosa",
    who: "Da",
    amount: "Importo",
    method: "Metodo",
    months: "Mesi",
    action: {
      extend: "Prolunga",
      "mark-paid": "Registra un pagamento",
      suspend: "Sospendi",
      reactivate: "Riattiva",
      "cancel-subscription": "Ferma il rinnovo automatico",
      approve: "Accetta la candidatura",
      reject: "Rifiuta la candidatura",
    },
    done: {
      created: "Membro aggiunto.",
      saved: "Modifiche salvate.",
      erased: "Membro cancellato.",
      extend: "Adesione prolungata.",
      "mark-paid": "Pagamento registrato.",
      suspend: "Membro sospeso.",
      reactivate: "Membro riattivato.",
      "cancel-subscription": "Rinnovo automatico fermato.",
      approve: "Candidatura accettata.",
      reject: "Candidatura rifiutata.",
      "send-card": "Tessera inviata per e-mail.",
    },
    sendCard: "Invia la tessera per e-mail",
    openCard: "Apri la tessera",
    openPage: "Apri la pagina del socio",
    cardSent: "Tessera inviata",
    cardNeverSent: "Mai",
    noMethod: "Nessuno",
    erase: "Cancella",
    eraseTitle: "Cancella {name}",
    eraseText:
      "La cancellazione (GDPR art. 17) è definitiva: nome, e-mail, campi personalizzati, codici e tessera vengono rimossi. I pagamenti restano, legati a un membro anonimo.",
    eraseConfirm: "Ho capito che non si può annullare",
    eraseButton: "Cancella definitivamente",
    exportData: "Scarica i suoi dati (JSON)",
    kinds: {
      manual_create: "Aggiunto a mano",
      import_create: "Importazione (nuovo)",
      import_update: "Importazione (aggiornato)",
      update: "Modificato",
      correction: "Fine corretta",
      extend: "Prolungato",
      mark_paid: "Pagamento registrato",
      suspend: "Sospeso",
      reactivate: "Riattivato",
      cancel_subscription: "Rinnovo automatico fermato",
      card_email_sent: "Tessera inviata per e-mail",
      payment: "Pagamento",
      payment_flagged: "Pagamento da verificare (non applicato)",
      join: "Adesione online",
      renew: "Rinnovo",
      approve: "Candidatura accettata",
      reject: "Candidatura rifiutata",
      erase: "Cancellato",
      refund: "Rimborso (carta)",
      subscription_ended: "Abbonamento con carta terminato",
    },
    methods: { bank_transfer: "Bonifico", cash: "Contanti", stripe: "Carta (Stripe)", card: "Carta" },
  },
};
