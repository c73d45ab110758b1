// The texts of what the product draws rather than answers (error messages are in messages.ts):
// the member's card (web page, Apple and Google passes), the roster PDF, the card email, in the
// four languages a club can choose. Kept here, beside the messages, so that a translator finds
// every text of a language in lib/i18n.
import type { Locale } from "./messages";

/** A text per member status (active, expired, pending, suspended). */
type StatusTexts = Record<"active" | "expired" | "pending" | "suspended", string>;

export type CardTexts = {
  status: StatusTexts;
  member: string;
  tier: string;
  validUntil: string;
  code: string;
  /**
   * Under the QR code, per status: only an active card is to be shown at the entrance; the others
   * say why they are not valid (`{date}`: the last day of the membership).
   */
  scanHint: StatusTexts;
  perks: string;
  info: string;
  locations: string;
  map: string;
  addApple: string;
  addGoogle: string;
  redeem: string;
  hours: string;
  notFoundTitle: string;
  notFoundText: string;
  /** Google's name for the custom link when the club gives it no label. */
  link: string;
  /** What the wallet copy of an erased member's card says instead of anything about the member. */
  voided: string;
};

export const CARD_TEXTS: Record<Locale, CardTexts> = {
  fr: {
    status: { active: "Membre actif", expired: "Adhésion expirée", suspended: "Adhésion suspendue", pending: "Paiement en attente" },
    member: "Membre",
    tier: "Catégorie",
    validUntil: "Valable jusqu'au",
    code: "Code",
    scanHint: {
      active: "Présentez ce code à l'entrée.",
      expired: "Cette carte n'est plus valable : l'adhésion a pris fin le {date}.",
      suspended: "Cette carte n'est pas valable : l'adhésion est suspendue. Contactez le club.",
      pending: "Cette carte n'est pas encore valable : la cotisation n'est pas encore payée.",
    },
    perks: "Vos avantages",
    info: "Informations",
    locations: "Nos adresses",
    map: "Voir sur la carte",
    addApple: "Ajouter à Apple Wallet",
    addGoogle: "Ajouter à Google Wallet",
    redeem: "Comment en profiter",
    hours: "Horaires",
    notFoundTitle: "Carte introuvable",
    notFoundText: "Ce lien ne correspond à aucune carte de membre. Vérifiez l'adresse reçue par e-mail.",
    link: "Lien",
    voided: "Cette carte n'est plus valable.",
  },
  en: {
    status: { active: "Active member", expired: "Membership expired", suspended: "Membership suspended", pending: "Payment pending" },
    member: "Member",
    tier: "Tier",
    validUntil: "Valid until",
    code: "Code",
    scanHint: {
      active: "Show this code at the entrance.",
      expired: "This card is no longer valid: the membership ended on {date}.",
      suspended: "This card is not valid: the membership is suspended. Please contact the club.",
      pending: "This card is not valid yet: the membership fee has not been paid.",
    },
    perks: "Your perks",
    info: "Information",
    locations: "Our locations",
    map: "Show on map",
    addApple: "Add to Apple Wallet",
    addGoogle: "Add to Google Wallet",
    redeem: "How to redeem",
    hours: "Opening hours",
    notFoundTitle: "Card not found",
    notFoundText: "This link matches no membership card. Check the address you received by email.",
    link: "Link",
    voided: "This card is no longer valid.",
  },
  de: {
    status: { active: "Aktives Mitglied", expired: "Mitgliedschaft abgelaufen", suspended: "Mitgliedschaft gesperrt", pending: "Zahlung ausstehend" },
    member: "Mitglied",
    tier: "Kategorie",
    validUntil: "Gültig bis",
    code: "Code",
    scanHint: {
      active: "Zeigen Sie diesen Code am Eingang.",
      expired: "Diese Karte ist nicht mehr gültig: Die Mitgliedschaft endete am {date}.",
      suspended: "Diese Karte ist nicht gültig: Die Mitgliedschaft ist gesperrt. Bitte wenden Sie sich an den Verein.",
      pending: "Diese Karte ist noch nicht gültig: Der Mitgliederbeitrag ist noch nicht bezahlt.",
    },
    perks: "Ihre Vorteile",
    info: "Informationen",
    locations: "Unsere Standorte",
    map: "Auf der Karte zeigen",
    addApple: "Zu Apple Wallet hinzufügen",
    addGoogle: "Zu Google Wallet hinzufügen",
    redeem: "So lösen Sie ein",
    hours: "Öffnungszeiten",
    notFoundTitle: "Karte nicht gefunden",
    notFoundText: "Dieser Link gehört zu keiner Mitgliedskarte. Prüfen Sie die Adresse aus Ihrer E-Mail.",
    link: "Link",
    voided: "Diese Karte ist nicht mehr gültig.",
  },
  it: {
    status: { active: "Socio attivo", expired: "Iscrizione scaduta", suspended: "Iscrizione sospesa", pending: "Pagamento in attesa" },
    member: "Socio",
    tier: "Categoria",
    validUntil: "Valida fino al",
    code: "Codice",
    scanHint: {
      active: "Mostra questo codice all'ingresso.",
      expired: "Questa tessera non è più valida: l'iscrizione è terminata il {date}.",
      suspended: "Questa tessera non è valida: l'iscrizione è sospesa. Contatta il club.",
      pending: "Questa tessera non è ancora valida: la quota associativa non è ancora stata pagata.",
    },
    perks: "I tuoi vantaggi",
    info: "Informazioni",
    locations: "Le nostre sedi",
    map: "Vedi sulla mappa",
    addApple: "Aggiungi a Apple Wallet",
    addGoogle: "Aggiungi a Google Wallet",
    redeem: "Come usufruirne",
    hours: "Orari",
    notFoundTitle: "Tessera non trovata",
    notFoundText: "Questo link non corrisponde a nessuna tessera. Controlla l'indirizzo ricevuto per e-mail.",
    link: "Link",
    voided: "Questa tessera non è più valida.",
  },
};

/** The Apple pass's description (what VoiceOver and the lock screen say). */
export const PASS_DESCRIPTION: Record<Locale, string> = {
  fr: "Carte de membre",
  en: "Membership card",
  de: "Mitgliedskarte",
  it: "Tessera socio",
};

export type RosterTexts = { headers: string[]; status: StatusTexts; title: string; page: string };

export const ROSTER_TEXTS: Record<Locale, RosterTexts> = {
  fr: {
    headers: ["nom", "prénom", "email", "fin abonnement", "statut"],
    status: { active: "actif", expired: "expiré", pending: "en attente", suspended: "suspendu" },
    title: "Liste des membres",
    page: "page {n} / {total}",
  },
  en: {
    headers: ["last name", "first name", "email", "membership end", "status"],
    status: { active: "active", expired: "expired", pending: "pending", suspended: "suspended" },
    title: "Member list",
    page: "page {n} / {total}",
  },
  de: {
    headers: ["Nachname", "Vorname", "E-Mail", "Mitgliedschaftsende", "Status"],
    status: { active: "aktiv", expired: "abgelaufen", pending: "ausstehend", suspended: "gesperrt" },
    title: "Mitgliederliste",
    page: "Seite {n} / {total}",
  },
  it: {
    headers: ["cognome", "nome", "email", "fine abbonamento", "stato"],
    status: { active: "attivo", expired: "scaduto", pending: "in attesa", suspended: "sospeso" },
    title: "Elenco dei membri",
    page: "pagina {n} / {total}",
  },
};

export const CARD_EMAIL_TEXTS: Record<Locale, { subject: string; hello: string; intro: string; open: string; qr: string; bye: string }> = {
  fr: {
    subject: "Votre carte de membre — {club}",
    hello: "Bonjour {first},",
    intro: "Voici votre carte de membre de {club}.",
    open: "Ouvrez votre carte",
    qr: "Présentez ce code QR lors des contrôles (code {code}).",
    bye: "À bientôt,",
  },
  en: {
    subject: "Your membership card — {club}",
    hello: "Hello {first},",
    intro: "Here is your {club} membership card.",
    open: "Open your card",
    qr: "Show this QR code when asked (code {code}).",
    bye: "See you soon,",
  },
  de: {
    subject: "Ihr Mitgliedsausweis — {club}",
    hello: "Hallo {first},",
    intro: "Hier ist Ihr Mitgliedsausweis von {club}.",
    open: "Ausweis öffnen",
    qr: "Zeigen Sie diesen QR-Code bei Kontrollen vor (Code {code}).",
    bye: "Bis bald,",
  },
  it: {
    subject: "La tua tessera di membro — {club}",
    hello: "Ciao {first},",
    intro: "Ecco la tua tessera di membro di {club}.",
    open: "Apri la tua tessera",
    qr: "Mostra questo codice QR ai controlli (codice {code}).",
    bye: "A presto,",
  },
};

/**
 * The mails a registrant gets ({first}, {event}, {date}, {ticket}, {club}, {amount}, {code}):
 * their event was cancelled, or a place freed up and their waiting-list registration moved up,
 * confirmed (free) or held awaiting payment.
 */
export type RegistrationMailTexts = {
  hello: string;
  bye: string;
  cancelled: { subject: string; body: string };
  promotedConfirmed: { subject: string; body: string };
  promotedPending: { subject: string; body: string };
  /** A pending registration not paid within the club's hold: cancelled, its place freed (issue 18). */
  expired: { subject: string; body: string };
};

export const REGISTRATION_MAIL_TEXTS: Record<Locale, RegistrationMailTexts> = {
  fr: {
    hello: "Bonjour {first},",
    bye: "À bientôt,",
    cancelled: {
      subject: "Annulé : {event} — {club}",
      body: "Nous sommes désolés : « {event} », prévu le {date}, est annulé. Votre inscription ({ticket}) ne sera pas utilisée. Pour toute question, répondez à ce message.",
    },
    promotedConfirmed: {
      subject: "Une place s'est libérée : {event} — {club}",
      body: "Une place s'est libérée pour « {event} » le {date} : votre inscription ({ticket}) est confirmée. Votre code d'entrée : {code}.",
    },
    promotedPending: {
      subject: "Une place s'est libérée : {event} — {club}",
      body: "Une place s'est libérée pour « {event} » le {date} : elle vous est réservée ({ticket}) en attendant votre paiement de {amount}.",
    },
    expired: {
      subject: "Inscription annulée faute de paiement : {event} — {club}",
      body: "Votre inscription à « {event} » le {date} ({ticket}, {amount}) n'a pas été payée à temps : elle est annulée et la place est libérée. Vous pouvez vous réinscrire s'il reste de la place.",
    },
  },
  en: {
    hello: "Hello {first},",
    bye: "See you soon,",
    cancelled: {
      subject: "Cancelled: {event} — {club}",
      body: "We are sorry: “{event}”, planned for {date}, is cancelled. Your registration ({ticket}) will not be used. If you have any question, reply to this message.",
    },
    promotedConfirmed: {
      subject: "A place opened up: {event} — {club}",
      body: "A place opened up for “{event}” on {date}: your registration ({ticket}) is confirmed. Your entry code: {code}.",
    },
    promotedPending: {
      subject: "A place opened up: {event} — {club}",
      body: "A place opened up for “{event}” on {date}: it is held for you ({ticket}) until your payment of {amount}.",
    },
    expired: {
      subject: "Registration cancelled, not paid: {event} — {club}",
      body: "Your registration for “{event}” on {date} ({ticket}, {amount}) was not paid in time: it is cancelled and the place freed. You may register again while places are left.",
    },
  },
  de: {
    hello: "Hallo {first},",
    bye: "Bis bald,",
    cancelled: {
      subject: "Abgesagt: {event} — {club}",
      body: "Es tut uns leid: „{event}“, geplant am {date}, ist abgesagt. Ihre Anmeldung ({ticket}) verfällt. Bei Fragen antworten Sie einfach auf diese Nachricht.",
    },
    promotedConfirmed: {
      subject: "Ein Platz ist frei geworden: {event} — {club}",
      body: "Für „{event}“ am {date} ist ein Platz frei geworden: Ihre Anmeldung ({ticket}) ist bestätigt. Ihr Eintrittscode: {code}.",
    },
    promotedPending: {
      subject: "Ein Platz ist frei geworden: {event} — {club}",
      body: "Für „{event}“ am {date} ist ein Platz frei geworden: er ist für Sie reserviert ({ticket}), bis Ihre Zahlung von {amount} eingeht.",
    },
    expired: {
      subject: "Anmeldung storniert, nicht bezahlt: {event} — {club}",
      body: "Ihre Anmeldung für „{event}“ am {date} ({ticket}, {amount}) wurde nicht rechtzeitig bezahlt: sie ist storniert und der Platz freigegeben. Solange Plätze frei sind, können Sie sich erneut anmelden.",
    },
  },
  it: {
    hello: "Ciao {first},",
    bye: "A presto,",
    cancelled: {
      subject: "Annullato: {event} — {club}",
      body: "Ci dispiace: «{event}», previsto il {date}, è annullato. La tua iscrizione ({ticket}) non sarà utilizzata. Per qualsiasi domanda, rispondi a questo messaggio.",
    },
    promotedConfirmed: {
      subject: "Si è liberato un posto: {event} — {club}",
      body: "Si è liberato un posto per «{event}» il {date}: la tua iscrizione ({ticket}) è confermata. Il tuo codice d'ingresso: {code}.",
    },
    promotedPending: {
      subject: "Si è liberato un posto: {event} — {club}",
      body: "Si è liberato un posto per «{event}» il {date}: è riservato per te ({ticket}) in attesa del tuo pagamento di {amount}.",
    },
    expired: {
      subject: "Iscrizione annullata, non pagata: {event} — {club}",
      body: "La tua iscrizione a «{event}» il {date} ({ticket}, {amount}) non è stata pagata in tempo: è annullata e il posto liberato. Puoi iscriverti di nuovo finché ci sono posti.",
    },
  },
};

/** The mail to the club's contact when a webhook endpoint is disabled (DESIGN.md section 15). `{reason}` is one of `reasons`. */
export const WEBHOOK_DISABLED_TEXTS: Record<Locale, { subject: string; body: string; reasons: { gone: string; failing: string } }> = {
  fr: {
    subject: "Webhook désactivé — {club}",
    body: "Le webhook {url} de {club} a été désactivé : {reason}. Les événements ne lui sont plus envoyés. Corrigez le destinataire puis réactivez-le (PATCH webhooks/{id} avec enabled=true) ; les envois manqués se relancent depuis leur journal.",
    reasons: { gone: "il a répondu 410 (Gone)", failing: "tous les envois échouent depuis 3 jours" },
  },
  en: {
    subject: "Webhook disabled — {club}",
    body: "The webhook {url} of {club} has been disabled: {reason}. Events are no longer sent to it. Fix the receiver, then enable it again (PATCH webhooks/{id} with enabled=true); missed deliveries can be retried from its delivery log.",
    reasons: { gone: "it answered 410 (Gone)", failing: "every delivery has failed for 3 days" },
  },
  de: {
    subject: "Webhook deaktiviert — {club}",
    body: "Der Webhook {url} von {club} wurde deaktiviert: {reason}. Ereignisse werden ihm nicht mehr gesendet. Beheben Sie den Empfänger und aktivieren Sie ihn wieder (PATCH webhooks/{id} mit enabled=true); verpasste Zustellungen lassen sich aus dem Protokoll erneut senden.",
    reasons: { gone: "er hat 410 (Gone) geantwortet", failing: "alle Zustellungen schlagen seit 3 Tagen fehl" },
  },
  it: {
    subject: "Webhook disattivato — {club}",
    body: "Il webhook {url} di {club} è stato disattivato: {reason}. Gli eventi non gli vengono più inviati. Correggete il destinatario e riattivatelo (PATCH webhooks/{id} con enabled=true); gli invii mancati si possono ripetere dal loro registro.",
    reasons: { gone: "ha risposto 410 (Gone)", failing: "tutti gli invii falliscono da 3 giorni" },
  },
};

/** The name of the club the first start creates when CLUB_NAME is not set, in the club's language (renamed in the settings). */
export const FIRST_CLUB_NAME: Record<Locale, string> = { fr: "Mon club", de: "Mein Verein", it: "Il mio club", en: "My club" };
