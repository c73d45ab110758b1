// The texts a mailing adds around what the club wrote (lib/mailings): the footer with the
// unsubscribe link, the one-click unsubscribe page, and the line of the member's page that turns
// mailings off and on. Placeholders: {club}, {url}.
import type { Locale } from "./messages";

export type MailingTexts = {
  /** The footer of every mailing: why they get it, and the link that stops it. */
  footer: string;
  unsubscribeLabel: string;
  /** The page the link opens (GET): one button, so that a mail scanner following links unsubscribes nobody. */
  pageTitle: string;
  pageText: string;
  pageButton: string;
  doneTitle: string;
  doneText: string;
  /** The member's page. */
  mailings: string;
  mailingsOn: string;
  mailingsOff: string;
  turnOff: string;
  turnOn: string;
  /** The test send's subject prefix. */
  testPrefix: string;
};

export const MAILING_TEXTS: Record<Locale, MailingTexts> = {
  fr: {
    footer: "Vous recevez ce message en tant que membre de {club}.",
    unsubscribeLabel: "Ne plus recevoir ces envois",
    pageTitle: "Se désinscrire des envois",
    pageText: "Vous ne recevrez plus les envois de {club}. Les messages liés à votre adhésion (carte, reçus, factures, rappels, événements) continuent.",
    pageButton: "Me désinscrire",
    doneTitle: "C'est fait",
    doneText: "Vous ne recevrez plus les envois de {club}. Vous pouvez les réactiver depuis votre page de membre.",
    mailings: "Envois du club",
    mailingsOn: "Vous recevez les envois du club.",
    mailingsOff: "Vous ne recevez pas les envois du club.",
    turnOff: "Ne plus les recevoir",
    turnOn: "Les recevoir",
    testPrefix: "[Test] ",
  },
  en: {
    footer: "You get this mail as a member of {club}.",
    unsubscribeLabel: "Stop these mailings",
    pageTitle: "Unsubscribe from mailings",
    pageText: "You will no longer get {club}'s mailings. Mails about your membership (card, receipts, invoices, reminders, events) still come.",
    pageButton: "Unsubscribe me",
    doneTitle: "Done",
    doneText: "You will no longer get {club}'s mailings. You can turn them back on from your member page.",
    mailings: "Club mailings",
    mailingsOn: "You get the club's mailings.",
    mailingsOff: "You do not get the club's mailings.",
    turnOff: "Stop them",
    turnOn: "Get them",
    testPrefix: "[Test] ",
  },
  de: {
    footer: "Sie erhalten diese Nachricht als Mitglied von {club}.",
    unsubscribeLabel: "Diese Rundschreiben abbestellen",
    pageTitle: "Rundschreiben abbestellen",
    pageText:
      "Sie erhalten die Rundschreiben von {club} nicht mehr. Nachrichten zu Ihrer Mitgliedschaft (Karte, Quittungen, Rechnungen, Erinnerungen, Veranstaltungen) kommen weiterhin.",
    pageButton: "Abbestellen",
    doneTitle: "Erledigt",
    doneText: "Sie erhalten die Rundschreiben von {club} nicht mehr. Auf Ihrer Mitgliederseite können Sie sie wieder einschalten.",
    mailings: "Rundschreiben des Vereins",
    mailingsOn: "Sie erhalten die Rundschreiben des Vereins.",
    mailingsOff: "Sie erhalten die Rundschreiben des Vereins nicht.",
    turnOff: "Abbestellen",
    turnOn: "Wieder erhalten",
    testPrefix: "[Test] ",
  },
  it: {
    footer: "Ricevi questo messaggio come membro di {club}.",
    unsubscribeLabel: "Non ricevere più questi invii",
    pageTitle: "Disiscriviti dagli invii",
    pageText: "Non riceverai più gli invii di {club}. I messaggi sulla tua adesione (tessera, ricevute, fatture, promemoria, eventi) continuano.",
    pageButton: "Disiscrivimi",
    doneTitle: "Fatto",
    doneText: "Non riceverai più gli invii di {club}. Puoi riattivarli dalla tua pagina di membro.",
    mailings: "Invii del club",
    mailingsOn: "Ricevi gli invii del club.",
    mailingsOff: "Non ricevi gli invii del club.",
    turnOff: "Non riceverli più",
    turnOn: "Riceverli",
    testPrefix: "[Test] ",
  },
};
