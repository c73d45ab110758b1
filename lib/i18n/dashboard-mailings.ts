// The texts of the dashboard's mailings pages (dashboard/pages/mailings.tsx: the history, the
// compose page, a mailing's recipients) and of the member page's mailing marks (bounced, said no),
// in the four languages a club can choose. Placeholders: {n}, {email}, {date}, {name}, {zone}.
import type { Plural } from "./dashboard";
import type { Locale } from "./messages";

type MailingStatus = "draft" | "scheduled" | "sending" | "sent" | "cancelled";
type RecipientState = "pending" | "sent" | "failed" | "bounced" | "skipped_opt_out";
type MergeField = "first_name" | "last_name" | "membership_end" | "member_page_url" | "card_url";
export type MailingDone = "created" | "saved" | "tested" | "sent" | "scheduled" | "cancelled";

export type MailingsTexts = {
  intro: string;
  add: string;
  /** How many mailings the history holds (`{n}`). */
  found: Plural;
  empty: string;
  subject: string;
  status: string;
  when: string;
  created: string;
  states: Record<MailingStatus, string>;
  counts: Record<"recipients" | "sent" | "failed" | "bounced" | "skipped_opt_out", string>;
  newTitle: string;
  body: string;
  bodyHint: string;
  mergeTitle: string;
  merge: Record<MergeField, string>;
  audience: string;
  audienceHint: string;
  statuses: string;
  tiers: string;
  event: string;
  noEvent: string;
  registrationStatuses: string;
  registrationHint: string;
  /** The live count: who would receive it (`{n}`), and how many of them would be skipped. */
  wouldReach: Plural;
  wouldSkip: Plural;
  sample: string;
  save: string;
  back: string;
  preview: string;
  /** The preview shows the saved draft. */
  previewHint: string;
  previewAs: string;
  previewShow: string;
  previewTo: string;
  previewFrame: string;
  previewText: string;
  previewNone: string;
  test: string;
  testHint: string;
  testButton: string;
  send: string;
  sendHint: string;
  sendNow: string;
  /** The question before sending now (`{n}`: the audience's count). */
  sendConfirm: Plural;
  sendAt: string;
  schedule: string;
  scheduleConfirm: string;
  cancel: string;
  cancelConfirm: string;
  done: Record<MailingDone, string>;
  sendAtShown: string;
  sentAt: string;
  recipients: string;
  recipientsFound: Plural;
  recipientStates: Record<RecipientState, string>;
  member: string;
  email: string;
  error: string;
  erased: string;
  noRecipients: string;
  /** The member page's marks. */
  bounced: string;
  bouncedHint: string;
  optedOut: string;
  /** The recipients' column: when the mail went. */
  mailedAt: string;
  mailingsLabel: string;
};

export const MAILINGS_TEXTS: Record<Locale, MailingsTexts> = {
  fr: {
    intro: "Les envois aux membres : un brouillon, son public, un aperçu et un test, puis l'envoi maintenant ou à une heure choisie.",
    add: "Nouvel envoi",
    found: { one: "{n} envoi", other: "{n} envois" },
    empty: "Aucun envoi pour l'instant.",
    subject: "Objet",
    status: "État",
    when: "Envoi",
    created: "Créé le",
    states: { draft: "Brouillon", scheduled: "Programmé", sending: "En cours", sent: "Envoyé", cancelled: "Annulé" },
    counts: { recipients: "Destinataires", sent: "Envoyés", failed: "Échecs", bounced: "Rejetés", skipped_opt_out: "Désinscrits" },
    newTitle: "Nouvel envoi",
    body: "Message",
    bodyHint: "En Markdown : **gras**, *italique*, [lien](https://…), listes avec « - ». Le HTML est affiché tel quel, jamais interprété.",
    mergeTitle: "Champs de fusion, remplacés pour chaque membre :",
    merge: {
      first_name: "le prénom",
      last_name: "le nom",
      membership_end: "la fin de l'adhésion",
      member_page_url: "le lien vers sa page de membre",
      card_url: "le lien vers sa carte",
    },
    audience: "Destinataires",
    audienceHint: "Les membres qui remplissent chaque critère coché ; rien de coché : tous les membres.",
    statuses: "Statut du membre",
    tiers: "Catégories",
    event: "Inscrits à l'événement",
    noEvent: "Aucun événement",
    registrationStatuses: "Inscriptions retenues",
    registrationHint: "Avec un événement ; rien de coché : les inscriptions confirmées.",
    wouldReach: { one: "{n} membre recevrait cet envoi.", other: "{n} membres recevraient cet envoi." },
    wouldSkip: {
      one: "{n} d'entre eux serait sauté (désinscrit des envois ou adresse rejetée).",
      other: "{n} d'entre eux seraient sautés (désinscrits des envois ou adresse rejetée).",
    },
    sample: "Par exemple :",
    save: "Enregistrer le brouillon",
    back: "Retour aux envois",
    preview: "Aperçu",
    previewHint: "Le brouillon enregistré : enregistrez pour y voir vos changements.",
    previewAs: "Tel que le reçoit",
    previewShow: "Afficher",
    previewTo: "À",
    previewFrame: "Le message tel que le membre le reçoit",
    previewText: "Version texte",
    previewNone: "Aucun membre dans les destinataires : l'aperçu en attend un.",
    test: "Test",
    testHint: "Le message, rempli avec le premier destinataire, envoyé à votre adresse {email}, objet marqué comme test.",
    testButton: "M'envoyer un test",
    send: "Envoyer",
    sendHint: "Maintenant, ou à l'heure choisie ({zone}). Chaque membre le reçoit une fois, au rythme du serveur d'envoi.",
    sendNow: "Envoyer maintenant",
    sendConfirm: { one: "Envoyer ce message maintenant à {n} membre ?", other: "Envoyer ce message maintenant à {n} membres ?" },
    sendAt: "Envoyer le ({zone})",
    schedule: "Programmer",
    scheduleConfirm: "Programmer cet envoi à l'heure choisie ? Il partira aux membres du public à ce moment-là.",
    cancel: "Annuler l'envoi",
    cancelConfirm: "Annuler cet envoi ? Il ne partira pas.",
    done: {
      created: "Brouillon créé.",
      saved: "Brouillon enregistré.",
      tested: "Test envoyé à votre adresse.",
      sent: "Envoi lancé.",
      scheduled: "Envoi programmé.",
      cancelled: "Envoi annulé.",
    },
    sendAtShown: "Programmé pour",
    sentAt: "Terminé le",
    recipients: "Destinataires",
    recipientsFound: { one: "{n} destinataire", other: "{n} destinataires" },
    recipientStates: { pending: "En attente", sent: "Envoyé", failed: "Échec", bounced: "Rejeté", skipped_opt_out: "Désinscrit" },
    member: "Membre",
    email: "E-mail",
    error: "Raison",
    erased: "(effacé)",
    noRecipients: "Les destinataires sont fixés au départ de l'envoi.",
    bounced: "Adresse rejetée",
    bouncedHint: "Les envois la sautent jusqu'à ce que l'e-mail change.",
    mailedAt: "Envoyé le",
    optedOut: "Désinscrit des envois le {date}",
    mailingsLabel: "Envois",
  },
  en: {
    intro: "Mailings to the members: a draft, its audience, a preview and a test, then sent now or at a chosen time.",
    add: "New mailing",
    found: { one: "{n} mailing", other: "{n} mailings" },
    empty: "No mailing yet.",
    subject: "Subject",
    status: "Status",
    when: "Sending",
    created: "Created",
    states: { draft: "Draft", scheduled: "Scheduled", sending: "Sending", sent: "Sent", cancelled: "Cancelled" },
    counts: { recipients: "Recipients", sent: "Sent", failed: "Failed", bounced: "Bounced", skipped_opt_out: "Opted out" },
    newTitle: "New mailing",
    body: "Message",
    bodyHint: "In Markdown: **bold**, *italic*, [link](https://…), lists with “- ”. HTML is shown as typed, never as markup.",
    mergeTitle: "Merge fields, filled in for each member:",
    merge: {
      first_name: "the first name",
      last_name: "the last name",
      membership_end: "the membership's end",
      member_page_url: "the link to their member page",
      card_url: "the link to their card",
    },
    audience: "Recipients",
    audienceHint: "The members meeting every ticked criterion; nothing ticked: every member.",
    statuses: "Member status",
    tiers: "Tiers",
    event: "Registered to the event",
    noEvent: "No event",
    registrationStatuses: "Registrations that count",
    registrationHint: "With an event; nothing ticked: confirmed registrations.",
    wouldReach: { one: "{n} member would receive this mailing.", other: "{n} members would receive this mailing." },
    wouldSkip: {
      one: "{n} of them would be skipped (opted out of mailings or address bounced).",
      other: "{n} of them would be skipped (opted out of mailings or address bounced).",
    },
    sample: "For example:",
    save: "Save draft",
    back: "Back to mailings",
    preview: "Preview",
    previewHint: "The saved draft: save to see your changes here.",
    previewAs: "As received by",
    previewShow: "Show",
    previewTo: "To",
    previewFrame: "The mail as the member receives it",
    previewText: "Text part",
    previewNone: "No member among the recipients: the preview needs one.",
    test: "Test",
    testHint: "The mail, filled in with the first recipient, sent to your address {email}, its subject marked as a test.",
    testButton: "Send a test to me",
    send: "Send",
    sendHint: "Now, or at the chosen time ({zone}). Each member receives it once, at the mail server's pace.",
    sendNow: "Send now",
    sendConfirm: { one: "Send this mail now to {n} member?", other: "Send this mail now to {n} members?" },
    sendAt: "Send at ({zone})",
    schedule: "Schedule",
    scheduleConfirm: "Schedule this mailing at the chosen time? It goes to the members of its audience then.",
    cancel: "Cancel mailing",
    cancelConfirm: "Cancel this mailing? It will not be sent.",
    done: {
      created: "Draft created.",
      saved: "Draft saved.",
      tested: "Test sent to your address.",
      sent: "Sending started.",
      scheduled: "Mailing scheduled.",
      cancelled: "Mailing cancelled.",
    },
    sendAtShown: "Scheduled for",
    sentAt: "Finished",
    recipients: "Recipients",
    recipientsFound: { one: "{n} recipient", other: "{n} recipients" },
    recipientStates: { pending: "Pending", sent: "Sent", failed: "Failed", bounced: "Bounced", skipped_opt_out: "Opted out" },
    member: "Member",
    email: "Email",
    error: "Reason",
    erased: "(erased)",
    noRecipients: "The recipients are taken when sending starts.",
    bounced: "Address bounced",
    bouncedHint: "Mailings skip it until the email changes.",
    mailedAt: "Sent at",
    optedOut: "Opted out of mailings on {date}",
    mailingsLabel: "Mailings",
  },
  de: {
    intro: "Rundschreiben an die Mitglieder: ein Entwurf, seine Empfänger, eine Vorschau und ein Test, dann jetzt oder zu einer gewählten Zeit versandt.",
    add: "Neues Rundschreiben",
    found: { one: "{n} Rundschreiben", other: "{n} Rundschreiben" },
    empty: "Noch kein Rundschreiben.",
    subject: "Betreff",
    status: "Status",
    when: "Versand",
    created: "Erstellt",
    states: { draft: "Entwurf", scheduled: "Geplant", sending: "Wird versandt", sent: "Versandt", cancelled: "Abgebrochen" },
    counts: { recipients: "Empfänger", sent: "Versandt", failed: "Fehlgeschlagen", bounced: "Abgewiesen", skipped_opt_out: "Abgemeldet" },
    newTitle: "Neues Rundschreiben",
    body: "Nachricht",
    bodyHint: "In Markdown: **fett**, *kursiv*, [Link](https://…), Listen mit „- “. HTML wird als Text gezeigt, nie ausgeführt.",
    mergeTitle: "Platzhalter, für jedes Mitglied ersetzt:",
    merge: {
      first_name: "der Vorname",
      last_name: "der Nachname",
      membership_end: "das Ende der Mitgliedschaft",
      member_page_url: "der Link zur Mitgliederseite",
      card_url: "der Link zum Ausweis",
    },
    audience: "Empfänger",
    audienceHint: "Die Mitglieder, die jedes angekreuzte Kriterium erfüllen; nichts angekreuzt: alle Mitglieder.",
    statuses: "Mitgliedsstatus",
    tiers: "Kategorien",
    event: "Angemeldet zum Anlass",
    noEvent: "Kein Anlass",
    registrationStatuses: "Berücksichtigte Anmeldungen",
    registrationHint: "Mit einem Anlass; nichts angekreuzt: bestätigte Anmeldungen.",
    wouldReach: { one: "{n} Mitglied würde dieses Rundschreiben erhalten.", other: "{n} Mitglieder würden dieses Rundschreiben erhalten." },
    wouldSkip: {
      one: "{n} davon würde übersprungen (vom Versand abgemeldet oder Adresse abgewiesen).",
      other: "{n} davon würden übersprungen (vom Versand abgemeldet oder Adresse abgewiesen).",
    },
    sample: "Zum Beispiel:",
    save: "Entwurf speichern",
    back: "Zurück zu den Rundschreiben",
    preview: "Vorschau",
    previewHint: "Der gespeicherte Entwurf: speichern Sie, um Ihre Änderungen hier zu sehen.",
    previewAs: "So wie es erhält",
    previewShow: "Anzeigen",
    previewTo: "An",
    previewFrame: "Die Nachricht, wie das Mitglied sie erhält",
    previewText: "Textfassung",
    previewNone: "Kein Mitglied unter den Empfängern: die Vorschau braucht eines.",
    test: "Test",
    testHint: "Die Nachricht, mit dem ersten Empfänger ausgefüllt, an Ihre Adresse {email}, der Betreff als Test markiert.",
    testButton: "Test an mich senden",
    send: "Versenden",
    sendHint: "Jetzt oder zur gewählten Zeit ({zone}). Jedes Mitglied erhält es einmal, im Takt des Mailservers.",
    sendNow: "Jetzt versenden",
    sendConfirm: { one: "Diese Nachricht jetzt an {n} Mitglied senden?", other: "Diese Nachricht jetzt an {n} Mitglieder senden?" },
    sendAt: "Versenden am ({zone})",
    schedule: "Planen",
    scheduleConfirm: "Dieses Rundschreiben zur gewählten Zeit planen? Es geht dann an die Mitglieder seiner Empfängerliste.",
    cancel: "Rundschreiben abbrechen",
    cancelConfirm: "Dieses Rundschreiben abbrechen? Es wird nicht versandt.",
    done: {
      created: "Entwurf erstellt.",
      saved: "Entwurf gespeichert.",
      tested: "Test an Ihre Adresse gesendet.",
      sent: "Versand gestartet.",
      scheduled: "Rundschreiben geplant.",
      cancelled: "Rundschreiben abgebrochen.",
    },
    sendAtShown: "Geplant für",
    sentAt: "Beendet am",
    recipients: "Empfänger",
    recipientsFound: { one: "{n} Empfänger", other: "{n} Empfänger" },
    recipientStates: { pending: "Ausstehend", sent: "Versandt", failed: "Fehlgeschlagen", bounced: "Abgewiesen", skipped_opt_out: "Abgemeldet" },
    member: "Mitglied",
    email: "E-Mail",
    error: "Grund",
    erased: "(gelöscht)",
    noRecipients: "Die Empfänger werden beim Start des Versands festgelegt.",
    bounced: "Adresse abgewiesen",
    bouncedHint: "Rundschreiben überspringen sie, bis sich die E-Mail ändert.",
    mailedAt: "Versandt am",
    optedOut: "Vom Versand abgemeldet am {date}",
    mailingsLabel: "Rundschreiben",
  },
  it: {
    intro: "Gli invii ai soci: una bozza, i suoi destinatari, un'anteprima e un test, poi l'invio subito o a un'ora scelta.",
    add: "Nuovo invio",
    found: { one: "{n} invio", other: "{n} invii" },
    empty: "Ancora nessun invio.",
    subject: "Oggetto",
    status: "Stato",
    when: "Invio",
    created: "Creato il",
    states: { draft: "Bozza", scheduled: "Programmato", sending: "In corso", sent: "Inviato", cancelled: "Annullato" },
    counts: { recipients: "Destinatari", sent: "Inviati", failed: "Falliti", bounced: "Respinti", skipped_opt_out: "Disiscritti" },
    newTitle: "Nuovo invio",
    body: "Messaggio",
    bodyHint: "In Markdown: **grassetto**, *corsivo*, [link](https://…), elenchi con «- ». L'HTML è mostrato com'è, mai interpretato.",
    mergeTitle: "Campi di unione, sostituiti per ogni socio:",
    merge: {
      first_name: "il nome",
      last_name: "il cognome",
      membership_end: "la fine dell'adesione",
      member_page_url: "il link alla sua pagina di socio",
      card_url: "il link alla sua tessera",
    },
    audience: "Destinatari",
    audienceHint: "I soci che soddisfano ogni criterio selezionato; nulla selezionato: tutti i soci.",
    statuses: "Stato del socio",
    tiers: "Categorie",
    event: "Iscritti all'evento",
    noEvent: "Nessun evento",
    registrationStatuses: "Iscrizioni considerate",
    registrationHint: "Con un evento; nulla selezionato: le iscrizioni confermate.",
    wouldReach: { one: "{n} socio riceverebbe questo invio.", other: "{n} soci riceverebbero questo invio." },
    wouldSkip: {
      one: "{n} di loro verrebbe saltato (disiscritto dagli invii o indirizzo respinto).",
      other: "{n} di loro verrebbero saltati (disiscritti dagli invii o indirizzo respinto).",
    },
    sample: "Per esempio:",
    save: "Salva la bozza",
    back: "Torna agli invii",
    preview: "Anteprima",
    previewHint: "La bozza salvata: salvi per vedere qui le sue modifiche.",
    previewAs: "Come lo riceve",
    previewShow: "Mostra",
    previewTo: "A",
    previewFrame: "Il messaggio come lo riceve il socio",
    previewText: "Versione testo",
    previewNone: "Nessun socio tra i destinatari: l'anteprima ne richiede uno.",
    test: "Test",
    testHint: "Il messaggio, compilato con il primo destinatario, inviato al suo indirizzo {email}, con l'oggetto segnato come test.",
    testButton: "Inviami un test",
    send: "Inviare",
    sendHint: "Subito, o all'ora scelta ({zone}). Ogni socio lo riceve una volta, al ritmo del server di posta.",
    sendNow: "Invia subito",
    sendConfirm: { one: "Inviare ora questo messaggio a {n} socio?", other: "Inviare ora questo messaggio a {n} soci?" },
    sendAt: "Inviare il ({zone})",
    schedule: "Programma",
    scheduleConfirm: "Programmare questo invio all'ora scelta? Partirà allora ai soci dei destinatari.",
    cancel: "Annulla l'invio",
    cancelConfirm: "Annullare questo invio? Non partirà.",
    done: {
      created: "Bozza creata.",
      saved: "Bozza salvata.",
      tested: "Test inviato al suo indirizzo.",
      sent: "Invio avviato.",
      scheduled: "Invio programmato.",
      cancelled: "Invio annullato.",
    },
    sendAtShown: "Programmato per",
    sentAt: "Terminato il",
    recipients: "Destinatari",
    recipientsFound: { one: "{n} destinatario", other: "{n} destinatari" },
    recipientStates: { pending: "In attesa", sent: "Inviato", failed: "Fallito", bounced: "Respinto", skipped_opt_out: "Disiscritto" },
    member: "Socio",
    email: "E-mail",
    error: "Motivo",
    erased: "(cancellato)",
    noRecipients: "I destinatari sono fissati all'avvio dell'invio.",
    bounced: "Indirizzo respinto",
    bouncedHint: "Gli invii lo saltano finché l'e-mail non cambia.",
    mailedAt: "Inviato il",
    optedOut: "Disiscritto dagli invii il {date}",
    mailingsLabel: "Invii",
  },
};
