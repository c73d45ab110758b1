// The texts of the join mails (lib/join/mails): the payment details after joining or after a
// member asked to renew by bank transfer on their page, the link sent to an address that is
// already a member's, an application approved or turned down; in the four
// languages a club can choose. Placeholders: {first}, {club}, {amount}, {beneficiary}, {iban},
// {bic}, {reference}.
import type { Locale } from "./messages";

type Mail = { subject: string; body: string };

export type JoinMailTexts = {
  hello: string;
  bye: string;
  /** After joining (or an approval) with an amount to pay by bank transfer. */
  payment: Mail & { details: string[]; action: string };
  /** A member asked on their page to renew by bank transfer: what to pay (`payment.details` follow). */
  renewalPayment: Mail & { action: string };
  /** After joining (or an approval) with an amount to pay by card: the member's page takes it (Stripe). */
  cardPayment: Mail & { action: string };
  /** Joined with nothing to pay: the membership is active. */
  welcome: Mail & { action: string };
  /** An application received, awaiting the club's decision. */
  applied: Mail;
  /** Someone tried to join with the address of a member. */
  alreadyMember: Mail & { action: string };
  rejected: Mail;
};

export const JOIN_MAIL_TEXTS: Record<Locale, JoinMailTexts> = {
  fr: {
    hello: "Bonjour {first},",
    bye: "À bientôt,",
    payment: {
      subject: "Votre adhésion à {club} : le paiement",
      body: "Merci de rejoindre {club} ! Votre adhésion sera active dès réception de votre virement de {amount} :",
      details: ["Bénéficiaire : {beneficiary}", "IBAN : {iban}", "BIC : {bic}", "Référence : {reference}"],
      action: "Ma page de membre",
    },
    renewalPayment: {
      subject: "Le renouvellement de votre adhésion à {club}",
      body: "Merci de renouveler votre adhésion à {club} ! Elle sera prolongée dès réception de votre virement de {amount} :",
      action: "Ma page de membre",
    },
    cardPayment: {
      subject: "Votre adhésion à {club} : le paiement",
      body: "Merci de rejoindre {club} ! Votre adhésion sera active dès votre paiement de {amount} par carte. Si vous ne l'avez pas encore fait, payez depuis votre page de membre.",
      action: "Ma page de membre",
    },
    welcome: { subject: "Bienvenue à {club}", body: "Votre adhésion à {club} est active.", action: "Ma page de membre" },
    applied: {
      subject: "Votre demande d'adhésion à {club}",
      body: "Nous avons bien reçu votre demande d'adhésion à {club}. Vous recevrez un message dès qu'elle aura été examinée.",
    },
    alreadyMember: {
      subject: "Votre adhésion à {club}",
      body: "Quelqu'un (sans doute vous) a voulu adhérer à {club} avec cette adresse, qui est déjà celle d'un membre. Pour renouveler votre adhésion, rendez-vous sur votre page de membre.",
      action: "Ma page de membre",
    },
    rejected: {
      subject: "Votre demande d'adhésion à {club}",
      body: "Nous sommes désolés : votre demande d'adhésion à {club} n'a pas été retenue. Vos données ont été effacées.",
    },
  },
  en: {
    hello: "Hello {first},",
    bye: "See you soon,",
    payment: {
      subject: "Your membership of {club}: payment",
      body: "Thank you for joining {club}! Your membership becomes active as soon as your bank transfer of {amount} arrives:",
      details: ["Beneficiary: {beneficiary}", "IBAN: {iban}", "BIC: {bic}", "Reference: {reference}"],
      action: "My member page",
    },
    renewalPayment: {
      subject: "Renewing your membership of {club}",
      body: "Thank you for renewing your membership of {club}! It is extended as soon as your bank transfer of {amount} arrives:",
      action: "My member page",
    },
    cardPayment: {
      subject: "Your membership of {club}: payment",
      body: "Thank you for joining {club}! Your membership becomes active as soon as your card payment of {amount} is made. If you have not paid yet, pay from your member page.",
      action: "My member page",
    },
    welcome: { subject: "Welcome to {club}", body: "Your membership of {club} is active.", action: "My member page" },
    applied: {
      subject: "Your application to {club}",
      body: "We have received your application to join {club}. You will hear from us as soon as it has been reviewed.",
    },
    alreadyMember: {
      subject: "Your membership of {club}",
      body: "Someone (probably you) tried to join {club} with this address, which is already a member's. To renew your membership, go to your member page.",
      action: "My member page",
    },
    rejected: {
      subject: "Your application to {club}",
      body: "We are sorry: your application to join {club} was not accepted. Your data has been erased.",
    },
  },
  de: {
    hello: "Hallo {first},",
    bye: "Bis bald,",
    payment: {
      subject: "Ihre Mitgliedschaft bei {club}: die Zahlung",
      body: "Danke, dass Sie {club} beitreten! Ihre Mitgliedschaft wird aktiv, sobald Ihre Überweisung von {amount} eingegangen ist:",
      details: ["Empfänger: {beneficiary}", "IBAN: {iban}", "BIC: {bic}", "Referenz: {reference}"],
      action: "Meine Mitgliederseite",
    },
    renewalPayment: {
      subject: "Die Verlängerung Ihrer Mitgliedschaft bei {club}",
      body: "Danke, dass Sie Ihre Mitgliedschaft bei {club} verlängern! Sie wird verlängert, sobald Ihre Überweisung von {amount} eingegangen ist:",
      action: "Meine Mitgliederseite",
    },
    cardPayment: {
      subject: "Ihre Mitgliedschaft bei {club}: die Zahlung",
      body: "Danke, dass Sie {club} beitreten! Ihre Mitgliedschaft wird aktiv, sobald Ihre Kartenzahlung von {amount} erfolgt ist. Falls Sie noch nicht bezahlt haben, bezahlen Sie auf Ihrer Mitgliederseite.",
      action: "Meine Mitgliederseite",
    },
    welcome: { subject: "Willkommen bei {club}", body: "Ihre Mitgliedschaft bei {club} ist aktiv.", action: "Meine Mitgliederseite" },
    applied: {
      subject: "Ihr Aufnahmeantrag bei {club}",
      body: "Wir haben Ihren Aufnahmeantrag bei {club} erhalten. Sie hören von uns, sobald er geprüft ist.",
    },
    alreadyMember: {
      subject: "Ihre Mitgliedschaft bei {club}",
      body: "Jemand (vermutlich Sie) wollte mit dieser Adresse, die bereits einem Mitglied gehört, {club} beitreten. Um Ihre Mitgliedschaft zu erneuern, besuchen Sie Ihre Mitgliederseite.",
      action: "Meine Mitgliederseite",
    },
    rejected: {
      subject: "Ihr Aufnahmeantrag bei {club}",
      body: "Es tut uns leid: Ihr Aufnahmeantrag bei {club} wurde nicht angenommen. Ihre Daten wurden gelöscht.",
    },
  },
  it: {
    hello: "Buongiorno {first},",
    bye: "A presto,",
    payment: {
      subject: "La vostra adesione a {club}: il pagamento",
      body: "Grazie di unirvi a {club}! La vostra adesione sarà attiva non appena riceveremo il vostro bonifico di {amount}:",
      details: ["Beneficiario: {beneficiary}", "IBAN: {iban}", "BIC: {bic}", "Riferimento: {reference}"],
      action: "La mia pagina di membro",
    },
    renewalPayment: {
      subject: "Il rinnovo della vostra adesione a {club}",
      body: "Grazie di rinnovare la vostra adesione a {club}! Sarà prolungata non appena riceveremo il vostro bonifico di {amount}:",
      action: "La mia pagina di membro",
    },
    cardPayment: {
      subject: "La vostra adesione a {club}: il pagamento",
      body: "Grazie di unirvi a {club}! La vostra adesione sarà attiva non appena avrete pagato {amount} con la carta. Se non l'avete ancora fatto, pagate dalla vostra pagina di membro.",
      action: "La mia pagina di membro",
    },
    welcome: { subject: "Benvenuti in {club}", body: "La vostra adesione a {club} è attiva.", action: "La mia pagina di membro" },
    applied: {
      subject: "La vostra domanda di adesione a {club}",
      body: "Abbiamo ricevuto la vostra domanda di adesione a {club}. Riceverete un messaggio non appena sarà stata esaminata.",
    },
    alreadyMember: {
      subject: "La vostra adesione a {club}",
      body: "Qualcuno (probabilmente voi) ha cercato di aderire a {club} con questo indirizzo, che è già di un membro. Per rinnovare la vostra adesione, andate sulla vostra pagina di membro.",
      action: "La mia pagina di membro",
    },
    rejected: {
      subject: "La vostra domanda di adesione a {club}",
      body: "Ci dispiace: la vostra domanda di adesione a {club} non è stata accolta. I vostri dati sono stati cancellati.",
    },
  },
};
