// The texts of a club's public pages (lib/pages): the join page (/join/<slug>) and the event page
// (/e/<club>/<event>), in the four languages a club can choose. Placeholders: {n}, {date},
// {price}, {amount}.
import type { Locale } from "./messages";

export type PageTexts = {
  notFoundTitle: string;
  notFoundText: string;
  /** The title of a refusal met before the page could answer (a form that cannot be read, too many requests). */
  refusedTitle: string;
  optional: string;
  firstName: string;
  lastName: string;
  email: string;
  promoCode: string;
  formProblem: string;
  /** The form's proof failed (expired, used...): the page shows a fresh one. */
  sendAgain: string;
  yes: string;
  no: string;
  choose: string;
  continueToPayment: string;
  join: {
    title: string;
    application: string;
    closed: string;
    tiers: string;
    months: string;
    oneMonth: string;
    free: string;
    referralCode: string;
    payment: string;
    methods: Record<"bank_transfer" | "stripe", string>;
    subscription: string;
    submit: string;
    submitApplication: string;
    noTier: string;
    activeTitle: string;
    activeText: string;
    appliedTitle: string;
    appliedText: string;
    payTitle: string;
    payText: string;
    discount: string;
    manage: string;
  };
  event: {
    when: string;
    where: string;
    tickets: string;
    placesLeft: string;
    soldOut: string;
    membersOnly: string;
    memberPrice: string;
    guestPrice: string;
    free: string;
    register: string;
    ticket: string;
    memberCode: string;
    membersOnlyEvent: string;
    waitlist: string;
    closed: string;
    notOpen: string;
    cancelled: string;
    calendar: string;
    confirmedTitle: string;
    confirmedText: string;
    pendingTitle: string;
    pendingText: string;
    pendingUntil: string;
    /** Pending, with no payment details in the answer: whom to ask. */
    payContact: string;
    waitlistedTitle: string;
    waitlistedText: string;
    ticketCode: string;
  };
};

export const PAGE_TEXTS: Record<Locale, PageTexts> = {
  fr: {
    notFoundTitle: "Page introuvable",
    notFoundText: "Cette adresse ne correspond à aucune page. Vérifiez le lien reçu du club.",
    refusedTitle: "Demande refusée",
    optional: "(facultatif)",
    firstName: "Prénom",
    lastName: "Nom",
    email: "Adresse e-mail",
    promoCode: "Code promo",
    formProblem: "Vérifiez les champs signalés.",
    sendAgain: "Le formulaire a expiré : envoyez-le à nouveau.",
    yes: "Oui",
    no: "Non",
    choose: "Choisir…",
    continueToPayment: "Continuer vers le paiement",
    join: {
      title: "Devenir membre",
      application: "L'adhésion se fait sur demande : le club examine chaque demande avant de vous accueillir.",
      closed: "Ce club n'accepte pas de nouveaux membres pour le moment.",
      tiers: "Formule",
      months: "{n} mois",
      oneMonth: "1 mois",
      free: "Gratuit",
      referralCode: "Code de parrainage d'un membre",
      payment: "Paiement",
      methods: { bank_transfer: "Virement bancaire", stripe: "Carte bancaire" },
      subscription: "Renouveler automatiquement à chaque échéance",
      submit: "Adhérer",
      submitApplication: "Envoyer ma demande",
      noTier: "Aucune formule n'est proposée pour le moment.",
      activeTitle: "Bienvenue !",
      activeText: "Votre adhésion est active. Votre carte de membre vous a été envoyée par e-mail.",
      appliedTitle: "Demande reçue",
      appliedText: "Merci ! Le club examine votre demande et vous répondra par e-mail.",
      payTitle: "Dernière étape : le paiement",
      payText: "Votre adhésion sera active dès que le club aura reçu votre paiement. Ces informations vous ont aussi été envoyées par e-mail.",
      discount: "Réduction : {amount}",
      manage: "Ma page de membre",
    },
    event: {
      when: "Quand",
      where: "Où",
      tickets: "Billets",
      placesLeft: "Plus que {n} places",
      soldOut: "Complet",
      membersOnly: "Réservé aux membres",
      memberPrice: "Membres : {price}",
      guestPrice: "Non-membres : {price}",
      free: "gratuit",
      register: "S'inscrire",
      ticket: "Billet",
      memberCode: "Code de votre carte de membre (tarif membre)",
      membersOnlyEvent: "Cet événement est réservé aux membres : indiquez le code de votre carte.",
      waitlist: "C'est complet : votre inscription ira sur la liste d'attente.",
      closed: "Les inscriptions sont closes.",
      notOpen: "Les inscriptions ouvrent le {date}.",
      cancelled: "Cet événement est annulé.",
      calendar: "Ajouter à mon agenda",
      confirmedTitle: "Vous êtes inscrit·e",
      confirmedText: "Présentez ce code à l'entrée.",
      pendingTitle: "Place réservée : paiement attendu",
      pendingText: "Votre inscription sera confirmée dès réception du paiement.",
      pendingUntil: "Sans paiement le {date}, la place sera libérée.",
      payContact: "Pour payer, écrivez au club :",
      waitlistedTitle: "Vous êtes sur la liste d'attente",
      waitlistedText: "Si une place se libère, nous vous écrirons.",
      ticketCode: "Code du billet",
    },
  },
  en: {
    notFoundTitle: "Page not found",
    notFoundText: "This address matches no page. Check the link you received from the club.",
    refusedTitle: "Request refused",
    optional: "(optional)",
    firstName: "First name",
    lastName: "Last name",
    email: "Email address",
    promoCode: "Promo code",
    formProblem: "Please check the fields marked below.",
    sendAgain: "The form has expired: please send it again.",
    yes: "Yes",
    no: "No",
    choose: "Choose…",
    continueToPayment: "Continue to payment",
    join: {
      title: "Become a member",
      application: "Membership is by application: the club reviews each application before welcoming you.",
      closed: "This club is not taking new members at the moment.",
      tiers: "Membership",
      months: "{n} months",
      oneMonth: "1 month",
      free: "Free",
      referralCode: "A member's referral code",
      payment: "Payment",
      methods: { bank_transfer: "Bank transfer", stripe: "Card" },
      subscription: "Renew automatically at the end of each period",
      submit: "Join",
      submitApplication: "Send my application",
      noTier: "No membership is on offer at the moment.",
      activeTitle: "Welcome!",
      activeText: "Your membership is active. Your membership card has been sent to you by email.",
      appliedTitle: "Application received",
      appliedText: "Thank you! The club is reviewing your application and will reply by email.",
      payTitle: "One last step: the payment",
      payText: "Your membership starts as soon as the club receives your payment. These details have also been sent to you by email.",
      discount: "Discount: {amount}",
      manage: "My member page",
    },
    event: {
      when: "When",
      where: "Where",
      tickets: "Tickets",
      placesLeft: "{n} places left",
      soldOut: "Sold out",
      membersOnly: "Members only",
      memberPrice: "Members: {price}",
      guestPrice: "Non-members: {price}",
      free: "free",
      register: "Register",
      ticket: "Ticket",
      memberCode: "Your membership card code (member price)",
      membersOnlyEvent: "This event is for members: give your card's code.",
      waitlist: "The event is full: your registration will go on the waiting list.",
      closed: "Registration is closed.",
      notOpen: "Registration opens on {date}.",
      cancelled: "This event is cancelled.",
      calendar: "Add to my calendar",
      confirmedTitle: "You are registered",
      confirmedText: "Show this code at the door.",
      pendingTitle: "Place held: payment due",
      pendingText: "Your registration is confirmed once the payment is received.",
      pendingUntil: "Unpaid on {date}, the place is released.",
      payContact: "To pay, write to the club:",
      waitlistedTitle: "You are on the waiting list",
      waitlistedText: "If a place frees up, we will email you.",
      ticketCode: "Ticket code",
    },
  },
  de: {
    notFoundTitle: "Seite nicht gefunden",
    notFoundText: "Diese Adresse gehört zu keiner Seite. Prüfen Sie den Link, den Sie vom Verein erhalten haben.",
    refusedTitle: "Anfrage abgelehnt",
    optional: "(freiwillig)",
    firstName: "Vorname",
    lastName: "Nachname",
    email: "E-Mail-Adresse",
    promoCode: "Aktionscode",
    formProblem: "Bitte prüfen Sie die markierten Felder.",
    sendAgain: "Das Formular ist abgelaufen: Bitte senden Sie es erneut.",
    yes: "Ja",
    no: "Nein",
    choose: "Auswählen…",
    continueToPayment: "Weiter zur Zahlung",
    join: {
      title: "Mitglied werden",
      application: "Die Aufnahme erfolgt auf Antrag: Der Verein prüft jeden Antrag, bevor er Sie aufnimmt.",
      closed: "Dieser Verein nimmt zurzeit keine neuen Mitglieder auf.",
      tiers: "Mitgliedschaft",
      months: "{n} Monate",
      oneMonth: "1 Monat",
      free: "Kostenlos",
      referralCode: "Empfehlungscode eines Mitglieds",
      payment: "Zahlung",
      methods: { bank_transfer: "Banküberweisung", stripe: "Karte" },
      subscription: "Am Ende jeder Periode automatisch verlängern",
      submit: "Beitreten",
      submitApplication: "Antrag senden",
      noTier: "Zurzeit wird keine Mitgliedschaft angeboten.",
      activeTitle: "Willkommen!",
      activeText: "Ihre Mitgliedschaft ist aktiv. Ihr Mitgliederausweis wurde Ihnen per E-Mail geschickt.",
      appliedTitle: "Antrag erhalten",
      appliedText: "Danke! Der Verein prüft Ihren Antrag und antwortet Ihnen per E-Mail.",
      payTitle: "Letzter Schritt: die Zahlung",
      payText: "Ihre Mitgliedschaft beginnt, sobald der Verein Ihre Zahlung erhalten hat. Diese Angaben wurden Ihnen auch per E-Mail geschickt.",
      discount: "Ermässigung: {amount}",
      manage: "Meine Mitgliederseite",
    },
    event: {
      when: "Wann",
      where: "Wo",
      tickets: "Tickets",
      placesLeft: "Noch {n} Plätze",
      soldOut: "Ausverkauft",
      membersOnly: "Nur für Mitglieder",
      memberPrice: "Mitglieder: {price}",
      guestPrice: "Nichtmitglieder: {price}",
      free: "kostenlos",
      register: "Anmelden",
      ticket: "Ticket",
      memberCode: "Code Ihres Mitgliederausweises (Mitgliederpreis)",
      membersOnlyEvent: "Dieser Anlass ist für Mitglieder: Geben Sie den Code Ihres Ausweises an.",
      waitlist: "Der Anlass ist ausgebucht: Ihre Anmeldung kommt auf die Warteliste.",
      closed: "Die Anmeldung ist geschlossen.",
      notOpen: "Die Anmeldung öffnet am {date}.",
      cancelled: "Dieser Anlass ist abgesagt.",
      calendar: "In meinen Kalender",
      confirmedTitle: "Sie sind angemeldet",
      confirmedText: "Zeigen Sie diesen Code am Eingang.",
      pendingTitle: "Platz reserviert: Zahlung ausstehend",
      pendingText: "Ihre Anmeldung wird bestätigt, sobald die Zahlung eingegangen ist.",
      pendingUntil: "Ohne Zahlung bis {date} wird der Platz freigegeben.",
      payContact: "Für die Zahlung schreiben Sie dem Verein:",
      waitlistedTitle: "Sie sind auf der Warteliste",
      waitlistedText: "Wird ein Platz frei, schreiben wir Ihnen.",
      ticketCode: "Ticketcode",
    },
  },
  it: {
    notFoundTitle: "Pagina non trovata",
    notFoundText: "Questo indirizzo non corrisponde ad alcuna pagina. Controllate il link ricevuto dal club.",
    refusedTitle: "Richiesta rifiutata",
    optional: "(facoltativo)",
    firstName: "Nome",
    lastName: "Cognome",
    email: "Indirizzo e-mail",
    promoCode: "Codice promozionale",
    formProblem: "Controllate i campi segnalati.",
    sendAgain: "Il modulo è scaduto: inviatelo di nuovo.",
    yes: "Sì",
    no: "No",
    choose: "Scegliere…",
    continueToPayment: "Continua con il pagamento",
    join: {
      title: "Diventa membro",
      application: "L'adesione avviene su domanda: il club esamina ogni domanda prima di accogliervi.",
      closed: "Questo club non accetta nuovi membri al momento.",
      tiers: "Adesione",
      months: "{n} mesi",
      oneMonth: "1 mese",
      free: "Gratuito",
      referralCode: "Codice di presentazione di un membro",
      payment: "Pagamento",
      methods: { bank_transfer: "Bonifico bancario", stripe: "Carta" },
      subscription: "Rinnova automaticamente a ogni scadenza",
      submit: "Aderisci",
      submitApplication: "Invia la domanda",
      noTier: "Al momento non è proposta alcuna adesione.",
      activeTitle: "Benvenuti!",
      activeText: "La vostra adesione è attiva. La tessera di membro vi è stata inviata per e-mail.",
      appliedTitle: "Domanda ricevuta",
      appliedText: "Grazie! Il club esamina la vostra domanda e vi risponderà per e-mail.",
      payTitle: "Ultimo passo: il pagamento",
      payText: "La vostra adesione sarà attiva appena il club avrà ricevuto il pagamento. Questi dati vi sono stati inviati anche per e-mail.",
      discount: "Sconto: {amount}",
      manage: "La mia pagina di membro",
    },
    event: {
      when: "Quando",
      where: "Dove",
      tickets: "Biglietti",
      placesLeft: "Ancora {n} posti",
      soldOut: "Esaurito",
      membersOnly: "Riservato ai membri",
      memberPrice: "Membri: {price}",
      guestPrice: "Non membri: {price}",
      free: "gratuito",
      register: "Iscriviti",
      ticket: "Biglietto",
      memberCode: "Codice della vostra tessera (prezzo membri)",
      membersOnlyEvent: "Questo evento è riservato ai membri: indicate il codice della tessera.",
      waitlist: "L'evento è al completo: l'iscrizione andrà in lista d'attesa.",
      closed: "Le iscrizioni sono chiuse.",
      notOpen: "Le iscrizioni aprono il {date}.",
      cancelled: "Questo evento è annullato.",
      calendar: "Aggiungi al calendario",
      confirmedTitle: "Siete iscritti",
      confirmedText: "Mostrate questo codice all'ingresso.",
      pendingTitle: "Posto riservato: pagamento atteso",
      pendingText: "L'iscrizione sarà confermata appena ricevuto il pagamento.",
      pendingUntil: "Senza pagamento entro il {date}, il posto sarà liberato.",
      payContact: "Per pagare, scrivete al club:",
      waitlistedTitle: "Siete in lista d'attesa",
      waitlistedText: "Se si libera un posto, vi scriveremo.",
      ticketCode: "Codice del biglietto",
    },
  },
};
