// The texts of the member's own page (/m/<token>, lib/members/page-html), in the four languages a
// club can choose. Placeholders: {date}, {email}.
import type { Locale } from "./messages";

export type MemberPageTexts = {
  title: string;
  status: Record<"active" | "expired" | "pending" | "suspended", string>;
  until: string;
  endedOn: string;
  tier: string;
  card: string;
  openCard: string;
  addApple: string;
  addGoogle: string;
  renew: string;
  renewByTransfer: string;
  /** Pay the renewal by card (Stripe Checkout). */
  renewByCard: string;
  renewNone: string;
  /** Nothing to pay (a free tier, or the referral credit covers the price): renewed with one button. */
  renewFree: string;
  renewNow: string;
  transfer: { title: string; beneficiary: string; iban: string; bic: string; reference: string; amount: string; note: string };
  autoRenewal: string;
  autoOn: string;
  autoOff: string;
  turnOff: string;
  turnOn: string;
  name: string;
  firstName: string;
  lastName: string;
  save: string;
  email: string;
  newEmail: string;
  sendLink: string;
  pendingEmail: string;
  data: string;
  dataText: string;
  download: string;
  erasure: string;
  erasureText: string;
  erasureAsk: string;
  erasureAsked: string;
  done: Record<"name" | "email" | "email_confirmed" | "auto_renewal" | "mailings" | "erasure" | "renewed", string>;
  /** Back from Stripe's payment page: paid (the page shows it once Stripe has told us), or given up. */
  checkout: Record<"success" | "cancelled", string>;
  notFoundTitle: string;
  notFoundText: string;
  problem: string;
  back: string;
  /** The member's invoices (DESIGN.md section 20), each with its PDF; an open one with its transfer details. Placeholders: {number}, {date}, {amount}. */
  invoices: {
    title: string;
    invoice: string;
    issued: string;
    due: string;
    left: string;
    states: Record<"open" | "overdue" | "paid" | "cancelled", string>;
    pdf: string;
  };
};

export const MEMBER_PAGE_TEXTS: Record<Locale, MemberPageTexts> = {
  fr: {
    title: "Mon adhésion",
    status: { active: "Adhésion active", expired: "Adhésion expirée", pending: "Paiement en attente", suspended: "Adhésion suspendue" },
    until: "Valable jusqu'au {date}",
    endedOn: "Terminée le {date}",
    tier: "Catégorie",
    card: "Ma carte de membre",
    openCard: "Ouvrir ma carte",
    addApple: "Ajouter à Apple Wallet",
    addGoogle: "Ajouter à Google Wallet",
    renew: "Renouveler",
    renewByTransfer: "Payer par virement bancaire",
    renewByCard: "Payer par carte",
    renewNone: "Pour renouveler, contactez le club.",
    renewFree: "Rien à payer : votre catégorie est gratuite, ou votre crédit de parrainage couvre le prix.",
    renewNow: "Renouveler maintenant",
    transfer: {
      title: "Virement bancaire",
      beneficiary: "Bénéficiaire",
      iban: "IBAN",
      bic: "BIC",
      reference: "Référence",
      amount: "Montant",
      note: "Indiquez la référence avec votre virement : le club enregistre votre paiement dès réception.",
    },
    autoRenewal: "Renouvellement automatique",
    autoOn: "Votre adhésion se renouvelle automatiquement.",
    autoOff: "Le renouvellement automatique est désactivé : votre adhésion reste valable jusqu'à son terme.",
    turnOff: "Désactiver le renouvellement automatique",
    turnOn: "Réactiver le renouvellement automatique",
    name: "Mon nom",
    firstName: "Prénom",
    lastName: "Nom",
    save: "Enregistrer",
    email: "Mon adresse e-mail",
    newEmail: "Nouvelle adresse e-mail",
    sendLink: "Envoyer le lien de confirmation",
    pendingEmail: "Un lien de confirmation a été envoyé à {email}.",
    data: "Mes données",
    dataText: "Téléchargez tout ce que le club conserve à votre sujet.",
    download: "Télécharger mes données",
    erasure: "Effacer mes données",
    erasureText: "Demandez au club d'effacer vos données. Votre adhésion prendra fin.",
    erasureAsk: "Demander l'effacement",
    erasureAsked: "Vous avez demandé l'effacement de vos données le {date}. Le club va traiter votre demande.",
    done: {
      name: "Votre nom a été corrigé.",
      email: "Un lien de confirmation a été envoyé à la nouvelle adresse.",
      email_confirmed: "Votre nouvelle adresse est confirmée. L'adresse de cette page a changé : gardez celle-ci.",
      auto_renewal: "C'est noté.",
      mailings: "C'est noté.",
      erasure: "Votre demande d'effacement a été transmise au club.",
      renewed: "Votre adhésion est renouvelée.",
    },
    checkout: {
      success: "Merci ! Votre paiement est en cours de confirmation ; votre adhésion sera renouvelée dans quelques instants.",
      cancelled: "Le paiement a été annulé : rien n'a été débité.",
    },
    notFoundTitle: "Page introuvable",
    notFoundText: "Ce lien ne correspond à aucune page de membre. Utilisez le dernier lien reçu par e-mail.",
    problem: "Impossible de terminer",
    back: "Retour à ma page",
    invoices: {
      title: "Mes factures",
      invoice: "Facture {number}",
      issued: "Émise le {date}",
      due: "À payer d'ici le {date}",
      left: "Reste à payer : {amount}",
      states: { open: "Ouverte", overdue: "En retard", paid: "Payée", cancelled: "Annulée" },
      pdf: "Télécharger la facture {number} (PDF)",
    },
  },
  en: {
    title: "My membership",
    status: { active: "Membership active", expired: "Membership expired", pending: "Payment pending", suspended: "Membership suspended" },
    until: "Valid until {date}",
    endedOn: "Ended on {date}",
    tier: "Tier",
    card: "My member card",
    openCard: "Open my card",
    addApple: "Add to Apple Wallet",
    addGoogle: "Add to Google Wallet",
    renew: "Renew",
    renewByTransfer: "Pay by bank transfer",
    renewByCard: "Pay by card",
    renewNone: "To renew, please contact the club.",
    renewFree: "Nothing to pay: your category is free, or your referral credit covers the price.",
    renewNow: "Renew now",
    transfer: {
      title: "Bank transfer",
      beneficiary: "Beneficiary",
      iban: "IBAN",
      bic: "BIC",
      reference: "Reference",
      amount: "Amount",
      note: "Give the reference with your transfer: the club records your payment as soon as it arrives.",
    },
    autoRenewal: "Automatic renewal",
    autoOn: "Your membership renews automatically.",
    autoOff: "Automatic renewal is off: your membership stays valid until its end.",
    turnOff: "Turn automatic renewal off",
    turnOn: "Turn automatic renewal back on",
    name: "My name",
    firstName: "First name",
    lastName: "Last name",
    save: "Save",
    email: "My email address",
    newEmail: "New email address",
    sendLink: "Send the confirmation link",
    pendingEmail: "A confirmation link was sent to {email}.",
    data: "My data",
    dataText: "Download everything the club keeps about you.",
    download: "Download my data",
    erasure: "Erase my data",
    erasureText: "Ask the club to erase your data. Your membership will end.",
    erasureAsk: "Ask for erasure",
    erasureAsked: "You asked for your data to be erased on {date}. The club will handle your request.",
    done: {
      name: "Your name has been corrected.",
      email: "A confirmation link was sent to the new address.",
      email_confirmed: "Your new address is confirmed. This page's address has changed: keep this one.",
      auto_renewal: "Done.",
      mailings: "Done.",
      erasure: "Your erasure request was sent to the club.",
      renewed: "Your membership is renewed.",
    },
    checkout: {
      success: "Thank you! Your payment is being confirmed; your membership will be renewed in a moment.",
      cancelled: "The payment was cancelled: nothing was charged.",
    },
    notFoundTitle: "Page not found",
    notFoundText: "This link matches no member page. Use the latest link you received by email.",
    problem: "Could not finish",
    back: "Back to my page",
    invoices: {
      title: "My invoices",
      invoice: "Invoice {number}",
      issued: "Issued on {date}",
      due: "To pay by {date}",
      left: "Left to pay: {amount}",
      states: { open: "Open", overdue: "Overdue", paid: "Paid", cancelled: "Cancelled" },
      pdf: "Download invoice {number} (PDF)",
    },
  },
  de: {
    title: "Meine Mitgliedschaft",
    status: { active: "Mitgliedschaft aktiv", expired: "Mitgliedschaft abgelaufen", pending: "Zahlung ausstehend", suspended: "Mitgliedschaft gesperrt" },
    until: "Gültig bis {date}",
    endedOn: "Abgelaufen am {date}",
    tier: "Kategorie",
    card: "Mein Mitgliederausweis",
    openCard: "Ausweis öffnen",
    addApple: "Zu Apple Wallet hinzufügen",
    addGoogle: "Zu Google Wallet hinzufügen",
    renew: "Verlängern",
    renewByTransfer: "Per Banküberweisung bezahlen",
    renewByCard: "Mit Karte bezahlen",
    renewNone: "Für eine Verlängerung wenden Sie sich bitte an den Verein.",
    renewFree: "Nichts zu bezahlen: Ihre Kategorie ist kostenlos, oder Ihr Empfehlungsguthaben deckt den Preis.",
    renewNow: "Jetzt verlängern",
    transfer: {
      title: "Banküberweisung",
      beneficiary: "Empfänger",
      iban: "IBAN",
      bic: "BIC",
      reference: "Referenz",
      amount: "Betrag",
      note: "Geben Sie die Referenz bei der Überweisung an: der Verein verbucht Ihre Zahlung, sobald sie eingeht.",
    },
    autoRenewal: "Automatische Verlängerung",
    autoOn: "Ihre Mitgliedschaft verlängert sich automatisch.",
    autoOff: "Die automatische Verlängerung ist aus: Ihre Mitgliedschaft bleibt bis zum Ende gültig.",
    turnOff: "Automatische Verlängerung ausschalten",
    turnOn: "Automatische Verlängerung wieder einschalten",
    name: "Mein Name",
    firstName: "Vorname",
    lastName: "Nachname",
    save: "Speichern",
    email: "Meine E-Mail-Adresse",
    newEmail: "Neue E-Mail-Adresse",
    sendLink: "Bestätigungslink senden",
    pendingEmail: "Ein Bestätigungslink wurde an {email} gesendet.",
    data: "Meine Daten",
    dataText: "Laden Sie alles herunter, was der Verein über Sie speichert.",
    download: "Meine Daten herunterladen",
    erasure: "Meine Daten löschen",
    erasureText: "Bitten Sie den Verein, Ihre Daten zu löschen. Ihre Mitgliedschaft endet damit.",
    erasureAsk: "Löschung beantragen",
    erasureAsked: "Sie haben am {date} die Löschung Ihrer Daten beantragt. Der Verein bearbeitet Ihren Antrag.",
    done: {
      name: "Ihr Name wurde korrigiert.",
      email: "Ein Bestätigungslink wurde an die neue Adresse gesendet.",
      email_confirmed: "Ihre neue Adresse ist bestätigt. Die Adresse dieser Seite hat sich geändert: behalten Sie diese.",
      auto_renewal: "Erledigt.",
      mailings: "Erledigt.",
      erasure: "Ihr Löschantrag wurde an den Verein übermittelt.",
      renewed: "Ihre Mitgliedschaft ist verlängert.",
    },
    checkout: {
      success: "Danke! Ihre Zahlung wird bestätigt; Ihre Mitgliedschaft wird gleich verlängert.",
      cancelled: "Die Zahlung wurde abgebrochen: es wurde nichts belastet.",
    },
    notFoundTitle: "Seite nicht gefunden",
    notFoundText: "Dieser Link gehört zu keiner Mitgliederseite. Verwenden Sie den zuletzt per E-Mail erhaltenen Link.",
    problem: "Nicht möglich",
    back: "Zurück zu meiner Seite",
    invoices: {
      title: "Meine Rechnungen",
      invoice: "Rechnung {number}",
      issued: "Ausgestellt am {date}",
      due: "Zahlbar bis {date}",
      left: "Noch zu zahlen: {amount}",
      states: { open: "Offen", overdue: "Überfällig", paid: "Bezahlt", cancelled: "Storniert" },
      pdf: "Rechnung {number} herunterladen (PDF)",
    },
  },
  it: {
    title: "La mia adesione",
    status: { active: "Adesione attiva", expired: "Adesione scaduta", pending: "Pagamento in attesa", suspended: "Adesione sospesa" },
    until: "Valida fino al {date}",
    endedOn: "Terminata il {date}",
    tier: "Categoria",
    card: "La mia tessera",
    openCard: "Apri la mia tessera",
    addApple: "Aggiungi a Apple Wallet",
    addGoogle: "Aggiungi a Google Wallet",
    renew: "Rinnova",
    renewByTransfer: "Paga con bonifico bancario",
    renewByCard: "Paga con carta",
    renewNone: "Per rinnovare, contatta il club.",
    renewFree: "Nulla da pagare: la tua categoria è gratuita, o il tuo credito di presentazione copre il prezzo.",
    renewNow: "Rinnova ora",
    transfer: {
      title: "Bonifico bancario",
      beneficiary: "Beneficiario",
      iban: "IBAN",
      bic: "BIC",
      reference: "Riferimento",
      amount: "Importo",
      note: "Indica il riferimento con il bonifico: il club registra il pagamento appena arriva.",
    },
    autoRenewal: "Rinnovo automatico",
    autoOn: "La tua adesione si rinnova automaticamente.",
    autoOff: "Il rinnovo automatico è disattivato: la tua adesione resta valida fino alla scadenza.",
    turnOff: "Disattiva il rinnovo automatico",
    turnOn: "Riattiva il rinnovo automatico",
    name: "Il mio nome",
    firstName: "Nome",
    lastName: "Cognome",
    save: "Salva",
    email: "Il mio indirizzo e-mail",
    newEmail: "Nuovo indirizzo e-mail",
    sendLink: "Invia il link di conferma",
    pendingEmail: "Un link di conferma è stato inviato a {email}.",
    data: "I miei dati",
    dataText: "Scarica tutto ciò che il club conserva su di te.",
    download: "Scarica i miei dati",
    erasure: "Cancella i miei dati",
    erasureText: "Chiedi al club di cancellare i tuoi dati. La tua adesione terminerà.",
    erasureAsk: "Chiedi la cancellazione",
    erasureAsked: "Hai chiesto la cancellazione dei tuoi dati il {date}. Il club gestirà la tua richiesta.",
    done: {
      name: "Il tuo nome è stato corretto.",
      email: "Un link di conferma è stato inviato al nuovo indirizzo.",
      email_confirmed: "Il tuo nuovo indirizzo è confermato. L'indirizzo di questa pagina è cambiato: conserva questo.",
      auto_renewal: "Fatto.",
      mailings: "Fatto.",
      erasure: "La tua richiesta di cancellazione è stata inviata al club.",
      renewed: "La tua adesione è rinnovata.",
    },
    checkout: {
      success: "Grazie! Il pagamento è in corso di conferma; l'adesione sarà rinnovata tra un momento.",
      cancelled: "Il pagamento è stato annullato: non è stato addebitato nulla.",
    },
    notFoundTitle: "Pagina non trovata",
    notFoundText: "Questo link non corrisponde a nessuna pagina di socio. Usa l'ultimo link ricevuto per e-mail.",
    problem: "Impossibile completare",
    back: "Torna alla mia pagina",
    invoices: {
      title: "Le mie fatture",
      invoice: "Fattura {number}",
      issued: "Emessa il {date}",
      due: "Da pagare entro il {date}",
      left: "Resta da pagare: {amount}",
      states: { open: "Aperta", overdue: "Scaduta", paid: "Pagata", cancelled: "Annullata" },
      pdf: "Scarica la fattura {number} (PDF)",
    },
  },
};
