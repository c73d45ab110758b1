// The texts of the reminder mails (lib/reminders) and of the email-change mail of the member's
// page, in the four languages a club can choose. Placeholders: {first}, {club}, {date} (written
// long in the club's language), {days}, {event}, {when}, {place}, {code}.
import type { Locale } from "./messages";

type Mail = { subject: string; body: string; action: string };

export type ReminderMailTexts = {
  hello: string;
  bye: string;
  /** A renewal reminder; `lastDay` when the membership ends today. */
  renewal: Mail & { lastDay: string };
  expiry: Mail;
  event: Mail & { place: string; code: string };
  /** The code that confirms a new address, sent to that address. */
  emailChange: Mail & { code: string; expires: string };
};

export const REMINDER_MAIL_TEXTS: Record<Locale, ReminderMailTexts> = {
  fr: {
    hello: "Bonjour {first},",
    bye: "À bientôt,",
    renewal: {
      subject: "Votre adhésion se termine le {date} — {club}",
      body: "Votre adhésion à {club} se termine le {date}, dans {days} jours. Renouvelez-la en quelques instants depuis votre page de membre.",
      lastDay: "Votre adhésion à {club} se termine aujourd'hui, le {date}. Renouvelez-la en quelques instants depuis votre page de membre.",
      action: "Renouveler mon adhésion",
    },
    expiry: {
      subject: "Votre adhésion a pris fin — {club}",
      body: "Votre adhésion à {club} a pris fin le {date} : votre carte de membre n'est plus valable. Vous pouvez la renouveler à tout moment depuis votre page de membre.",
      action: "Renouveler mon adhésion",
    },
    event: {
      subject: "C'est demain : {event} — {club}",
      body: "Petit rappel : « {event} » a lieu demain, {when}.",
      place: "Lieu : {place}",
      code: "Votre code d'entrée : {code}",
      action: "Ajouter à mon agenda",
    },
    emailChange: {
      subject: "Confirmez votre nouvelle adresse — {club}",
      body: "Vous avez demandé à recevoir les messages de {club} à cette adresse. Confirmez-la avec le lien ci-dessous.",
      code: "Votre code de confirmation : {code}",
      expires: "Ce lien est valable 24 heures. Si vous n'avez rien demandé, ignorez ce message.",
      action: "Confirmer mon adresse",
    },
  },
  en: {
    hello: "Hello {first},",
    bye: "See you soon,",
    renewal: {
      subject: "Your membership ends on {date} — {club}",
      body: "Your membership of {club} ends on {date}, in {days} days. Renew it in a moment from your member page.",
      lastDay: "Your membership of {club} ends today, {date}. Renew it in a moment from your member page.",
      action: "Renew my membership",
    },
    expiry: {
      subject: "Your membership has ended — {club}",
      body: "Your membership of {club} ended on {date}: your member card is no longer valid. You can renew it at any time from your member page.",
      action: "Renew my membership",
    },
    event: {
      subject: "Tomorrow: {event} — {club}",
      body: "A quick reminder: “{event}” takes place tomorrow, {when}.",
      place: "Place: {place}",
      code: "Your entry code: {code}",
      action: "Add to my calendar",
    },
    emailChange: {
      subject: "Confirm your new address — {club}",
      body: "You asked to receive the messages of {club} at this address. Confirm it with the link below.",
      code: "Your confirmation code: {code}",
      expires: "This link is valid for 24 hours. If you did not ask for this, ignore this message.",
      action: "Confirm my address",
    },
  },
  de: {
    hello: "Hallo {first},",
    bye: "Bis bald,",
    renewal: {
      subject: "Ihre Mitgliedschaft endet am {date} — {club}",
      body: "Ihre Mitgliedschaft bei {club} endet am {date}, in {days} Tagen. Verlängern Sie sie in wenigen Augenblicken auf Ihrer Mitgliederseite.",
      lastDay: "Ihre Mitgliedschaft bei {club} endet heute, am {date}. Verlängern Sie sie in wenigen Augenblicken auf Ihrer Mitgliederseite.",
      action: "Mitgliedschaft verlängern",
    },
    expiry: {
      subject: "Ihre Mitgliedschaft ist abgelaufen — {club}",
      body: "Ihre Mitgliedschaft bei {club} ist am {date} abgelaufen: Ihr Mitgliederausweis ist nicht mehr gültig. Sie können sie jederzeit auf Ihrer Mitgliederseite verlängern.",
      action: "Mitgliedschaft verlängern",
    },
    event: {
      subject: "Morgen: {event} — {club}",
      body: "Eine kurze Erinnerung: „{event}“ findet morgen statt, {when}.",
      place: "Ort: {place}",
      code: "Ihr Eintrittscode: {code}",
      action: "In meinen Kalender",
    },
    emailChange: {
      subject: "Bestätigen Sie Ihre neue Adresse — {club}",
      body: "Sie möchten die Nachrichten von {club} an diese Adresse erhalten. Bestätigen Sie sie mit dem Link unten.",
      code: "Ihr Bestätigungscode: {code}",
      expires: "Dieser Link ist 24 Stunden gültig. Wenn Sie nichts angefordert haben, ignorieren Sie diese Nachricht.",
      action: "Adresse bestätigen",
    },
  },
  it: {
    hello: "Ciao {first},",
    bye: "A presto,",
    renewal: {
      subject: "La tua adesione termina il {date} — {club}",
      body: "La tua adesione a {club} termina il {date}, tra {days} giorni. Rinnovala in un attimo dalla tua pagina di socio.",
      lastDay: "La tua adesione a {club} termina oggi, {date}. Rinnovala in un attimo dalla tua pagina di socio.",
      action: "Rinnova la mia adesione",
    },
    expiry: {
      subject: "La tua adesione è terminata — {club}",
      body: "La tua adesione a {club} è terminata il {date}: la tua tessera non è più valida. Puoi rinnovarla in qualsiasi momento dalla tua pagina di socio.",
      action: "Rinnova la mia adesione",
    },
    event: {
      subject: "Domani: {event} — {club}",
      body: "Un breve promemoria: «{event}» si svolge domani, {when}.",
      place: "Luogo: {place}",
      code: "Il tuo codice d'ingresso: {code}",
      action: "Aggiungi al mio calendario",
    },
    emailChange: {
      subject: "Conferma il tuo nuovo indirizzo — {club}",
      body: "Hai chiesto di ricevere i messaggi di {club} a questo indirizzo. Confermalo con il link qui sotto.",
      code: "Il tuo codice di conferma: {code}",
      expires: "Questo link è valido 24 ore. Se non hai chiesto nulla, ignora questo messaggio.",
      action: "Conferma il mio indirizzo",
    },
  },
};
