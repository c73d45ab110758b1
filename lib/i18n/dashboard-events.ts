// The texts of the dashboard's events pages (dashboard/pages/events.tsx, event.tsx), in the four
// languages. Placeholders: {name}, {title}, {count}, {max}, {n}.
import type { Locale } from "./messages";

export type EventsTab = "upcoming" | "past" | "draft" | "cancelled";
type RegStatus = "confirmed" | "pending" | "waitlisted" | "cancelled";

export type EventsTexts = {
  tabs: Record<EventsTab, string>;
  tabsLabel: string;
  status: Record<"draft" | "published" | "cancelled", string>;
  add: string;
  addTitle: string;
  editTitle: string;
  title: string;
  startsAt: string;
  endsAt: string;
  /** Under a date-time field: the zone it is typed in ({zone}). */
  localHint: string;
  locationName: string;
  locationAddress: string;
  description: string;
  capacity: string;
  capacityHint: string;
  access: string;
  accessOptions: Record<"public" | "members", string>;
  listed: string;
  waitlist: string;
  maxPerEmail: string;
  opensAt: string;
  closesAt: string;
  publishNow: string;
  tickets: string;
  ticketsHint: string;
  ticket: string;
  ticketName: string;
  memberPrice: string;
  nonMemberPrice: string;
  nonMemberHint: string;
  /** An empty member price is saved as 0 (the API's default): free for members. */
  memberHint: string;
  quantityMax: string;
  quantityHint: string;
  removeTicket: string;
  newTicket: string;
  when: string;
  registered: string;
  checkedIn: string;
  revenue: string;
  empty: string;
  facts: string;
  place: string;
  places: string;
  waitlisted: string;
  publicPage: string;
  door: string;
  edit: string;
  publish: string;
  toDraft: string;
  cancelEvent: string;
  cancelEventHint: string;
  cancelEventConfirm: string;
  deleteEvent: string;
  deleteHint: string;
  deleteConfirm: string;
  registrations: string;
  regStatus: Record<RegStatus, string>;
  name: string;
  email: string;
  amount: string;
  paid: string;
  yes: string;
  no: string;
  checkedInAt: string;
  manage: string;
  noRegistrations: string;
  waitlistTitle: string;
  waitlistHint: string;
  position: string;
  addRegistration: string;
  firstName: string;
  lastName: string;
  memberEmail: string;
  memberEmailHint: string;
  memberNotFound: string;
  /** A members-only ticket added without a member: the form's member e-mail is what is missing. */
  ticketNeedsMember: string;
  regStatusChoice: string;
  regStatusOptions: Record<"auto" | "confirmed" | "pending", string>;
  registrationTitle: string;
  details: string;
  source: string;
  /** A registration's `source` in words (an unknown one is shown as stored). */
  sources: Record<"admin" | "public", string>;
  /** "Paid" of a registration with nothing to pay (a 0.00 ticket). */
  nothingDue: string;
  registeredAt: string;
  confirm: string;
  confirmHint: string;
  /** The registration page's invoice card (a member's registration awaiting payment). */
  invoice: string;
  invoiceHint: string;
  makeInvoice: string;
  confirmAmount: string;
  method: string;
  cancel: string;
  cancelHint: string;
  reason: string;
  refund: string;
  refundHint: string;
  holdUntil: string;
  backToEvent: string;
  done: Record<"created" | "saved" | "published" | "drafted" | "cancelled" | "deleted" | "registered" | "confirmed" | "regCancelled", string>;
};

export const EVENTS_TEXTS: Record<Locale, EventsTexts> = {
  fr: {
    tabs: { upcoming: "À venir", past: "Passés", draft: "Brouillons", cancelled: "Annulés" },
    tabsLabel: "Quels événements",
    status: { draft: "Brouillon", published: "Publié", cancelled: "Annulé" },
    add: "Créer un événement",
    addTitle: "Nouvel événement",
    editTitle: "Modifier {title}",
    title: "Titre",
    startsAt: "Début",
    endsAt: "Fin",
    localHint: "Heure locale du club ({zone}).",
    locationName: "Lieu",
    locationAddress: "Adresse",
    description: "Description",
    capacity: "Places",
    capacityHint: "Vide : sans limite.",
    access: "Ouvert à",
    accessOptions: { public: "Tout le monde", members: "Membres seulement" },
    listed: "Visible dans la liste publique des événements",
    waitlist: "Liste d'attente quand c'est complet",
    maxPerEmail: "Inscriptions par adresse e-mail",
    opensAt: "Inscriptions dès",
    closesAt: "Inscriptions jusqu'au",
    publishNow: "Publier tout de suite (sinon : brouillon)",
    tickets: "Billets",
    ticketsHint: "Un billet sans nom est ignoré.",
    ticket: "Billet",
    ticketName: "Nom du billet",
    memberPrice: "Prix membre",
    nonMemberPrice: "Prix non-membre",
    nonMemberHint: "Vide : réservé aux membres.",
    memberHint: "Vide ou 0 : gratuit pour les membres.",
    quantityMax: "Nombre maximum",
    quantityHint: "Vide : sans limite.",
    removeTicket: "Retirer ce billet",
    newTicket: "Nouveau billet",
    when: "Date",
    registered: "Inscrits",
    checkedIn: "Entrés",
    revenue: "Recettes",
    empty: "Aucun événement ici.",
    facts: "L'événement",
    place: "Lieu",
    places: "Places",
    waitlisted: "En liste d'attente",
    publicPage: "Page publique",
    door: "Entrée (scanner)",
    edit: "Modifier",
    publish: "Publier",
    toDraft: "Repasser en brouillon",
    cancelEvent: "Annuler l'événement",
    cancelEventHint: "Chaque inscrit confirmé ou en attente de paiement reçoit un e-mail. Un événement annulé ne peut plus changer.",
    cancelEventConfirm: "Annuler l'événement et prévenir les inscrits ?",
    deleteEvent: "Supprimer",
    deleteHint: "Possible tant que personne ne s'est inscrit.",
    deleteConfirm: "Supprimer cet événement ?",
    registrations: "Inscriptions",
    regStatus: { confirmed: "Confirmée", pending: "Paiement attendu", waitlisted: "En attente", cancelled: "Annulée" },
    name: "Nom",
    email: "E-mail",
    amount: "Montant",
    paid: "Payé",
    yes: "Oui",
    no: "Non",
    checkedInAt: "Entré·e à",
    manage: "Gérer",
    noRegistrations: "Aucune inscription pour l'instant.",
    waitlistTitle: "Liste d'attente",
    waitlistHint: "Quand une place se libère, les inscrits montent dans cet ordre (le plus ancien d'abord) et reçoivent un e-mail.",
    position: "Rang",
    addRegistration: "Ajouter une inscription",
    firstName: "Prénom",
    lastName: "Nom",
    memberEmail: "E-mail du membre",
    memberEmailHint: "Pour un membre du club : il paie le prix membre.",
    memberNotFound: "Aucun membre du club n'a cette adresse.",
    ticketNeedsMember: "Ce billet est réservé aux membres : indiquez l'e-mail du membre.",
    regStatusChoice: "Statut",
    regStatusOptions: { auto: "Selon le prix (gratuit : confirmée)", confirmed: "Confirmée", pending: "Paiement attendu" },
    registrationTitle: "Inscription de {name}",
    details: "Détails",
    source: "Origine",
    sources: { admin: "Ajoutée par un administrateur du club", public: "Inscription en ligne" },
    nothingDue: "Gratuit, rien à payer",
    registeredAt: "Inscrit·e le",
    confirm: "Confirmer",
    confirmHint: "Confirme l'inscription et enregistre le paiement reçu.",
    invoice: "Facture",
    invoiceHint:
      "Une facture avec QR-bill pour ce montant, à envoyer au membre depuis les factures ; son paiement confirme l'inscription. Une facture ouverte existante est reprise.",
    makeInvoice: "Facturer l'inscription",
    confirmAmount: "Montant reçu",
    method: "Moyen de paiement",
    cancel: "Annuler l'inscription",
    cancelHint: "La place libérée va à la liste d'attente.",
    reason: "Motif",
    refund: "Remboursement",
    refundHint: "Vide : aucun remboursement. Au plus ce qui a été payé.",
    holdUntil: "Place tenue jusqu'au",
    backToEvent: "Retour à l'événement",
    done: {
      created: "Événement créé.",
      saved: "Événement enregistré.",
      published: "Événement publié.",
      drafted: "Événement repassé en brouillon.",
      cancelled: "Événement annulé ; les inscrits sont prévenus.",
      deleted: "Événement supprimé.",
      registered: "Inscription ajoutée.",
      confirmed: "Inscription confirmée.",
      regCancelled: "Inscription annulée.",
    },
  },
  en: {
    tabs: { upcoming: "Upcoming", past: "Past", draft: "Drafts", cancelled: "Cancelled" },
    tabsLabel: "Which events",
    status: { draft: "Draft", published: "Published", cancelled: "Cancelled" },
    add: "Create an event",
    addTitle: "New event",
    editTitle: "Edit {title}",
    title: "Title",
    startsAt: "Starts",
    endsAt: "Ends",
    localHint: "The club's local time ({zone}).",
    locationName: "Place",
    locationAddress: "Address",
    description: "Description",
    capacity: "Places",
    capacityHint: "Empty: no limit.",
    access: "Open to",
    accessOptions: { public: "Everyone", members: "Members only" },
    listed: "Shown in the public list of events",
    waitlist: "Waiting list when full",
    maxPerEmail: "Registrations per email address",
    opensAt: "Registration opens",
    closesAt: "Registration closes",
    publishNow: "Publish now (otherwise: draft)",
    tickets: "Tickets",
    ticketsHint: "A ticket without a name is ignored.",
    ticket: "Ticket",
    ticketName: "Ticket name",
    memberPrice: "Member price",
    nonMemberPrice: "Non-member price",
    nonMemberHint: "Empty: members only.",
    memberHint: "Empty or 0: free for members.",
    quantityMax: "Maximum number",
    quantityHint: "Empty: no limit.",
    removeTicket: "Remove this ticket",
    newTicket: "New ticket",
    when: "Date",
    registered: "Registered",
    checkedIn: "Checked in",
    revenue: "Revenue",
    empty: "No event here.",
    facts: "The event",
    place: "Place",
    places: "Places",
    waitlisted: "On the waiting list",
    publicPage: "Public page",
    door: "Door (scanner)",
    edit: "Edit",
    publish: "Publish",
    toDraft: "Back to draft",
    cancelEvent: "Cancel the event",
    cancelEventHint: "Every confirmed or pending registrant is mailed. A cancelled event can no longer change.",
    cancelEventConfirm: "Cancel the event and tell the registrants?",
    deleteEvent: "Delete",
    deleteHint: "Possible while nobody has registered.",
    deleteConfirm: "Delete this event?",
    registrations: "Registrations",
    regStatus: { confirmed: "Confirmed", pending: "Awaiting payment", waitlisted: "Waitlisted", cancelled: "Cancelled" },
    name: "Name",
    email: "Email",
    amount: "Amount",
    paid: "Paid",
    yes: "Yes",
    no: "No",
    checkedInAt: "Checked in at",
    manage: "Manage",
    noRegistrations: "No registration yet.",
    waitlistTitle: "Waiting list",
    waitlistHint: "When a place frees up, registrants move up in this order (oldest first) and are mailed.",
    position: "Position",
    addRegistration: "Add a registration",
    firstName: "First name",
    lastName: "Last name",
    memberEmail: "Member's email",
    memberEmailHint: "For a member of the club: they pay the member price.",
    memberNotFound: "No member of the club has this address.",
    ticketNeedsMember: "This ticket is for members only: give the member's email.",
    regStatusChoice: "Status",
    regStatusOptions: { auto: "By price (free: confirmed)", confirmed: "Confirmed", pending: "Awaiting payment" },
    registrationTitle: "Registration of {name}",
    details: "Details",
    source: "Source",
    sources: { admin: "Added by a club admin", public: "Online registration" },
    nothingDue: "Free, nothing due",
    registeredAt: "Registered on",
    confirm: "Confirm",
    confirmHint: "Confirms the registration and records the payment received.",
    invoice: "Invoice",
    invoiceHint:
      "An invoice with a QR-bill for this amount, to send to the member from the invoices page; paying it confirms the registration. An open one already made is reused.",
    makeInvoice: "Invoice the registration",
    confirmAmount: "Amount received",
    method: "Payment method",
    cancel: "Cancel the registration",
    cancelHint: "The freed place goes to the waiting list.",
    reason: "Reason",
    refund: "Refund",
    refundHint: "Empty: no refund. At most what was paid.",
    holdUntil: "Place held until",
    backToEvent: "Back to the event",
    done: {
      created: "Event created.",
      saved: "Event saved.",
      published: "Event published.",
      drafted: "Event back to draft.",
      cancelled: "Event cancelled; registrants are told.",
      deleted: "Event deleted.",
      registered: "Registration added.",
      confirmed: "Registration confirmed.",
      regCancelled: "Registration cancelled.",
    },
  },
  de: {
    tabs: { upcoming: "Kommende", past: "Vergangene", draft: "Entwürfe", cancelled: "Abgesagte" },
    tabsLabel: "Welche Veranstaltungen",
    status: { draft: "Entwurf", published: "Veröffentlicht", cancelled: "Abgesagt" },
    add: "Veranstaltung erstellen",
    addTitle: "Neue Veranstaltung",
    editTitle: "{title} bearbeiten",
    title: "Titel",
    startsAt: "Beginn",
    endsAt: "Ende",
    localHint: "Ortszeit des Vereins ({zone}).",
    locationName: "Ort",
    locationAddress: "Adresse",
    description: "Beschreibung",
    capacity: "Plätze",
    capacityHint: "Leer: ohne Grenze.",
    access: "Offen für",
    accessOptions: { public: "Alle", members: "Nur Mitglieder" },
    listed: "In der öffentlichen Veranstaltungsliste sichtbar",
    waitlist: "Warteliste, wenn ausgebucht",
    maxPerEmail: "Anmeldungen pro E-Mail-Adresse",
    opensAt: "Anmeldung ab",
    closesAt: "Anmeldung bis",
    publishNow: "Sofort veröffentlichen (sonst: Entwurf)",
    tickets: "Tickets",
    ticketsHint: "Ein Ticket ohne Namen wird ignoriert.",
    ticket: "Ticket",
    ticketName: "Name des Tickets",
    memberPrice: "Mitgliederpreis",
    nonMemberPrice: "Preis für Nichtmitglieder",
    nonMemberHint: "Leer: nur für Mitglieder.",
    memberHint: "Leer oder 0: für Mitglieder gratis.",
    quantityMax: "Höchstzahl",
    quantityHint: "Leer: ohne Grenze.",
    removeTicket: "Dieses Ticket entfernen",
    newTicket: "Neues Ticket",
    when: "Datum",
    registered: "Angemeldet",
    checkedIn: "Eingelassen",
    revenue: "Einnahmen",
    empty: "Hier keine Veranstaltung.",
    facts: "Die Veranstaltung",
    place: "Ort",
    places: "Plätze",
    waitlisted: "Auf der Warteliste",
    publicPage: "Öffentliche Seite",
    door: "Einlass (Scanner)",
    edit: "Bearbeiten",
    publish: "Veröffentlichen",
    toDraft: "Zurück zum Entwurf",
    cancelEvent: "Veranstaltung absagen",
    cancelEventHint: "Alle bestätigten oder zahlungsausstehenden Angemeldeten erhalten eine E-Mail. Eine abgesagte Veranstaltung lässt sich nicht mehr ändern.",
    cancelEventConfirm: "Veranstaltung absagen und die Angemeldeten benachrichtigen?",
    deleteEvent: "Löschen",
    deleteHint: "Möglich, solange sich niemand angemeldet hat.",
    deleteConfirm: "Diese Veranstaltung löschen?",
    registrations: "Anmeldungen",
    regStatus: { confirmed: "Bestätigt", pending: "Zahlung ausstehend", waitlisted: "Warteliste", cancelled: "Storniert" },
    name: "Name",
    email: "E-Mail",
    amount: "Betrag",
    paid: "Bezahlt",
    yes: "Ja",
    no: "Nein",
    checkedInAt: "Eingelassen um",
    manage: "Verwalten",
    noRegistrations: "Noch keine Anmeldung.",
    waitlistTitle: "Warteliste",
    waitlistHint: "Wird ein Platz frei, rücken die Angemeldeten in dieser Reihenfolge nach (die ältesten zuerst) und erhalten eine E-Mail.",
    position: "Platz",
    addRegistration: "Anmeldung hinzufügen",
    firstName: "Vorname",
    lastName: "Nachname",
    memberEmail: "E-Mail des Mitglieds",
    memberEmailHint: "Für ein Mitglied des Vereins: es zahlt den Mitgliederpreis.",
    memberNotFound: "Kein Mitglied des Vereins hat diese Adresse.",
    ticketNeedsMember: "Dieses Ticket ist nur für Mitglieder: geben Sie die E-Mail-Adresse des Mitglieds an.",
    regStatusChoice: "Status",
    regStatusOptions: { auto: "Nach Preis (gratis: bestätigt)", confirmed: "Bestätigt", pending: "Zahlung ausstehend" },
    registrationTitle: "Anmeldung von {name}",
    details: "Details",
    source: "Herkunft",
    sources: { admin: "Von der Clubverwaltung hinzugefügt", public: "Online-Anmeldung" },
    nothingDue: "Gratis, nichts zu bezahlen",
    registeredAt: "Angemeldet am",
    confirm: "Bestätigen",
    confirmHint: "Bestätigt die Anmeldung und erfasst die erhaltene Zahlung.",
    invoice: "Rechnung",
    invoiceHint:
      "Eine Rechnung mit QR-Rechnung über diesen Betrag, vom Rechnungsbereich an das Mitglied zu senden; ihre Zahlung bestätigt die Anmeldung. Eine bereits offene wird wiederverwendet.",
    makeInvoice: "Anmeldung verrechnen",
    confirmAmount: "Erhaltener Betrag",
    method: "Zahlungsart",
    cancel: "Anmeldung stornieren",
    cancelHint: "Der freie Platz geht an die Warteliste.",
    reason: "Grund",
    refund: "Rückerstattung",
    refundHint: "Leer: keine Rückerstattung. Höchstens der bezahlte Betrag.",
    holdUntil: "Platz reserviert bis",
    backToEvent: "Zurück zur Veranstaltung",
    done: {
      created: "Veranstaltung erstellt.",
      saved: "Veranstaltung gespeichert.",
      published: "Veranstaltung veröffentlicht.",
      drafted: "Veranstaltung wieder Entwurf.",
      cancelled: "Veranstaltung abgesagt; die Angemeldeten werden benachrichtigt.",
      deleted: "Veranstaltung gelöscht.",
      registered: "Anmeldung hinzugefügt.",
      confirmed: "Anmeldung bestätigt.",
      regCancelled: "Anmeldung storniert.",
    },
  },
  it: {
    tabs: { upcoming: "In arrivo", past: "Passati", draft: "Bozze", cancelled: "Annullati" },
    tabsLabel: "Quali eventi",
    status: { draft: "Bozza", published: "Pubblicato", cancelled: "Annullato" },
    add: "Crea un evento",
    addTitle: "Nuovo evento",
    editTitle: "Modifica {title}",
    title: "Titolo",
    startsAt: "Inizio",
    endsAt: "Fine",
    localHint: "Ora locale del club ({zone}).",
    locationName: "Luogo",
    locationAddress: "Indirizzo",
    description: "Descrizione",
    capacity: "Posti",
    capacityHint: "Vuoto: senza limite.",
    access: "Aperto a",
    accessOptions: { public: "Tutti", members: "Solo membri" },
    listed: "Visibile nell'elenco pubblico degli eventi",
    waitlist: "Lista d'attesa quando è completo",
    maxPerEmail: "Iscrizioni per indirizzo e-mail",
    opensAt: "Iscrizioni dal",
    closesAt: "Iscrizioni fino al",
    publishNow: "Pubblica subito (altrimenti: bozza)",
    tickets: "Biglietti",
    ticketsHint: "Un biglietto senza nome è ignorato.",
    ticket: "Biglietto",
    ticketName: "Nome del biglietto",
    memberPrice: "Prezzo membri",
    nonMemberPrice: "Prezzo non membri",
    nonMemberHint: "Vuoto: riservato ai membri.",
    memberHint: "Vuoto o 0: gratuito per i membri.",
    quantityMax: "Numero massimo",
    quantityHint: "Vuoto: senza limite.",
    removeTicket: "Rimuovi questo biglietto",
    newTicket: "Nuovo biglietto",
    when: "Data",
    registered: "Iscritti",
    checkedIn: "Entrati",
    revenue: "Incassi",
    empty: "Nessun evento qui.",
    facts: "L'evento",
    place: "Luogo",
    places: "Posti",
    waitlisted: "In lista d'attesa",
    publicPage: "Pagina pubblica",
    door: "Ingresso (scanner)",
    edit: "Modifica",
    publish: "Pubblica",
    toDraft: "Torna a bozza",
    cancelEvent: "Annulla l'evento",
    cancelEventHint: "Ogni iscritto confermato o in attesa di pagamento riceve un'e-mail. Un evento annullato non può più cambiare.",
    cancelEventConfirm: "Annullare l'evento e avvisare gli iscritti?",
    deleteEvent: "Elimina",
    deleteHint: "Possibile finché nessuno si è iscritto.",
    deleteConfirm: "Eliminare questo evento?",
    registrations: "Iscrizioni",
    regStatus: { confirmed: "Confermata", pending: "Pagamento atteso", waitlisted: "In attesa", cancelled: "Annullata" },
    name: "Nome",
    email: "E-mail",
    amount: "Importo",
    paid: "Pagato",
    yes: "Sì",
    no: "No",
    checkedInAt: "Entrato alle",
    manage: "Gestisci",
    noRegistrations: "Ancora nessuna iscrizione.",
    waitlistTitle: "Lista d'attesa",
    waitlistHint: "Quando si libera un posto, gli iscritti salgono in quest'ordine (il più vecchio prima) e ricevono un'e-mail.",
    position: "Posizione",
    addRegistration: "Aggiungi un'iscrizione",
    firstName: "Nome",
    lastName: "Cognome",
    memberEmail: "E-mail del membro",
    memberEmailHint: "Per un membro del club: paga il prezzo membri.",
    memberNotFound: "Nessun membro del club ha questo indirizzo.",
    ticketNeedsMember: "Questo biglietto è riservato ai soci: indica l'e-mail del socio.",
    regStatusChoice: "Stato",
    regStatusOptions: { auto: "Secondo il prezzo (gratuito: confermata)", confirmed: "Confermata", pending: "Pagamento atteso" },
    registrationTitle: "Iscrizione di {name}",
    details: "Dettagli",
    source: "Origine",
    sources: { admin: "Aggiunta da un amministratore del club", public: "Iscrizione online" },
    nothingDue: "Gratuito, nulla da pagare",
    registeredAt: "Iscritto il",
    confirm: "Conferma",
    confirmHint: "Conferma l'iscrizione e registra il pagamento ricevuto.",
    invoice: "Fattura",
    invoiceHint:
      "Una fattura con QR-bill per questo importo, da inviare al socio dalla pagina delle fatture; il suo pagamento conferma l'iscrizione. Una fattura aperta già creata viene ripresa.",
    makeInvoice: "Fatturare l'iscrizione",
    confirmAmount: "Importo ricevuto",
    method: "Metodo di pagamento",
    cancel: "Annulla l'iscrizione",
    cancelHint: "Il posto liberato va alla lista d'attesa.",
    reason: "Motivo",
    refund: "Rimborso",
    refundHint: "Vuoto: nessun rimborso. Al massimo quanto pagato.",
    holdUntil: "Posto tenuto fino al",
    backToEvent: "Torna all'evento",
    done: {
      created: "Evento creato.",
      saved: "Evento salvato.",
      published: "Evento pubblicato.",
      drafted: "Evento tornato a bozza.",
      cancelled: "Evento annullato; gli iscritti sono avvisati.",
      deleted: "Evento eliminato.",
      registered: "Iscrizione aggiunta.",
      confirmed: "Iscrizione confermata.",
      regCancelled: "Iscrizione annullata.",
    },
  },
};
