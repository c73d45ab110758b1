// Every human-readable message of the API, in the four languages a club can choose (`locale`).
// Keys are the stable error codes clients may rely on; the texts may be improved freely.

export const LOCALES = ["fr", "en", "de", "it"] as const;
export type Locale = (typeof LOCALES)[number];

type Texts = Record<Locale, string>;

export const MESSAGES = {
  VALIDATION_FAILED: {
    fr: "La requête n'est pas valide.",
    en: "The request is not valid.",
    de: "Die Anfrage ist ungültig.",
    it: "La richiesta non è valida.",
  },
  MALFORMED_BODY: {
    fr: "Le corps de la requête n'est pas du JSON valide.",
    en: "The request body is not valid JSON.",
    de: "Der Anfragetext ist kein gültiges JSON.",
    it: "Il corpo della richiesta non è un JSON valido.",
  },
  UNAUTHORIZED: {
    fr: "Clé d'API manquante ou invalide.",
    en: "Missing or invalid API key.",
    de: "API-Schlüssel fehlt oder ist ungültig.",
    it: "Chiave API mancante o non valida.",
  },
  KEY_REVOKED: {
    fr: "Cette clé d'API a été révoquée.",
    en: "This API key has been revoked.",
    de: "Dieser API-Schlüssel wurde widerrufen.",
    it: "Questa chiave API è stata revocata.",
  },
  KEY_EXPIRED: {
    fr: "Cette clé d'API a expiré.",
    en: "This API key has expired.",
    de: "Dieser API-Schlüssel ist abgelaufen.",
    it: "Questa chiave API è scaduta.",
  },
  ADMIN_ACCESS_ENDED: {
    fr: "L'accès de l'administrateur de cette clé a pris fin.",
    en: "The access of this key's admin has ended.",
    de: "Der Zugang des Administrators dieses Schlüssels ist beendet.",
    it: "L'accesso dell'amministratore di questa chiave è terminato.",
  },
  SESSION_REQUIRED: {
    fr: "Cette route est réservée à une session du tableau de bord ; une clé d'API ne peut pas l'utiliser.",
    en: "This route needs a dashboard session; an API key cannot use it.",
    de: "Diese Route erfordert eine Dashboard-Sitzung; ein API-Schlüssel kann sie nicht verwenden.",
    it: "Questa route richiede una sessione della dashboard; una chiave API non può usarla.",
  },
  SUPERADMIN_REQUIRED: {
    fr: "Cette route est réservée aux super-administrateurs.",
    en: "This route is for superadmins only.",
    de: "Diese Route ist nur für Superadmins.",
    it: "Questa route è riservata ai superadmin.",
  },
  INVALID_CREDENTIALS: {
    fr: "E-mail ou mot de passe incorrect.",
    en: "Wrong email or password.",
    de: "E-Mail oder Passwort falsch.",
    it: "Email o password errati.",
  },
  FORBIDDEN: {
    fr: "Accès refusé.",
    en: "Access denied.",
    de: "Zugriff verweigert.",
    it: "Accesso negato.",
  },
  SCOPE_MISSING: {
    fr: "Cette clé n'a pas la permission « {scope} ».",
    en: "This key lacks the permission “{scope}”.",
    de: "Diesem Schlüssel fehlt die Berechtigung „{scope}“.",
    it: "Questa chiave non ha il permesso «{scope}».",
  },
  CLUB_FORBIDDEN: {
    fr: "Cette clé n'a pas accès à ce club.",
    en: "This key has no access to this club.",
    de: "Dieser Schlüssel hat keinen Zugriff auf diesen Club.",
    it: "Questa chiave non ha accesso a questo club.",
  },
  SCOPES_EXCEED_ADMIN: {
    fr: "Un administrateur en lecture seule ne peut créer que des clés en lecture.",
    en: "A read-only admin can only create view keys.",
    de: "Ein Administrator mit Lesezugriff kann nur Leseschlüssel erstellen.",
    it: "Un amministratore in sola lettura può creare solo chiavi di lettura.",
  },
  NOT_FOUND: {
    fr: "Ressource introuvable.",
    en: "Resource not found.",
    de: "Ressource nicht gefunden.",
    it: "Risorsa non trovata.",
  },
  ROUTE_NOT_FOUND: {
    fr: "Aucune route ne correspond à {method} {path}.",
    en: "No route matches {method} {path}.",
    de: "Keine Route entspricht {method} {path}.",
    it: "Nessuna route corrisponde a {method} {path}.",
  },
  CLUB_NOT_FOUND: {
    fr: "Club introuvable.",
    en: "Club not found.",
    de: "Club nicht gefunden.",
    it: "Club non trovato.",
  },
  ADMIN_NOT_FOUND: {
    fr: "Administrateur introuvable.",
    en: "Admin not found.",
    de: "Administrator nicht gefunden.",
    it: "Amministratore non trovato.",
  },
  KEY_NOT_FOUND: {
    fr: "Clé d'API introuvable.",
    en: "API key not found.",
    de: "API-Schlüssel nicht gefunden.",
    it: "Chiave API non trovata.",
  },
  EMAIL_TAKEN: {
    fr: "L'adresse {email} est déjà utilisée.",
    en: "The address {email} is already in use.",
    de: "Die Adresse {email} wird bereits verwendet.",
    it: "L'indirizzo {email} è già in uso.",
  },
  KEY_ALREADY_REVOKED: {
    fr: "Cette clé est déjà révoquée.",
    en: "This key is already revoked.",
    de: "Dieser Schlüssel ist bereits widerrufen.",
    it: "Questa chiave è già revocata.",
  },
  PAYLOAD_TOO_LARGE: {
    fr: "Le corps de la requête dépasse {max} octets.",
    en: "The request body exceeds {max} bytes.",
    de: "Der Anfragetext überschreitet {max} Bytes.",
    it: "Il corpo della richiesta supera {max} byte.",
  },
  RATE_LIMITED: {
    fr: "Trop de requêtes : réessayez dans {seconds} s.",
    en: "Too many requests: try again in {seconds} s.",
    de: "Zu viele Anfragen: erneut versuchen in {seconds} s.",
    it: "Troppe richieste: riprova tra {seconds} s.",
  },
  INTERNAL: {
    fr: "Erreur interne du serveur.",
    en: "Internal server error.",
    de: "Interner Serverfehler.",
    it: "Errore interno del server.",
  },
  INVALID_COLOR: {
    fr: "Couleur attendue au format #RRVVBB.",
    en: "Expected a colour in #RRGGBB form.",
    de: "Farbe im Format #RRGGBB erwartet.",
    it: "Colore atteso nel formato #RRGGBB.",
  },
  INVALID_URL: {
    fr: "Adresse web http(s) attendue.",
    en: "Expected an http(s) web address.",
    de: "http(s)-Webadresse erwartet.",
    it: "Indirizzo web http(s) atteso.",
  },
  INVALID_ENUM: {
    fr: "Valeur attendue parmi : {values}.",
    en: "Expected one of: {values}.",
    de: "Erwartet einer von: {values}.",
    it: "Valore atteso tra: {values}.",
  },
  DATE_ORDER: {
    fr: "« {field} » doit être postérieur à « {other} ».",
    en: "“{field}” must be later than “{other}”.",
    de: "„{field}“ muss nach „{other}“ liegen.",
    it: "«{field}» deve essere successivo a «{other}».",
  },
  // ---- Cards, verify and attendance (cards issue) ----
  ATTENDANCE_RANGE_ORDER: {
    fr: "« to » ne peut pas précéder « from ».",
    en: "“to” cannot be before “from”.",
    de: "„to“ darf nicht vor „from“ liegen.",
    it: "«to» non può precedere «from».",
  },
  ATTENDANCE_FILTER_CONFLICT: {
    fr: "Donnez soit « date », soit « from »/« to », soit « period », pas plusieurs.",
    en: "Give either “date”, or “from”/“to”, or “period”, not several.",
    de: "Entweder „date“, „from“/„to“ oder „period“ angeben, nicht mehrere.",
    it: "Indicare «date», oppure «from»/«to», oppure «period», non più di uno.",
  },
  ATTENDANCE_FROM_REQUIRED: {
    fr: "« to » demande aussi « from ».",
    en: "“to” needs “from” as well.",
    de: "„to“ erfordert auch „from“.",
    it: "«to» richiede anche «from».",
  },
  // ---- Google Wallet (cards issue, item 5) ----
  CARD_NOT_FOUND: {
    fr: "Aucune carte de membre ne correspond à ce lien.",
    en: "No membership card matches this link.",
    de: "Zu diesem Link gibt es keine Mitgliedskarte.",
    it: "Nessuna tessera corrisponde a questo link.",
  },
  WALLET_UNAVAILABLE: {
    fr: "Ce portefeuille est mal configuré sur ce service (clé illisible) : utilisez la carte web en attendant.",
    en: "This wallet is misconfigured on this service (its key cannot be read): use the web card meanwhile.",
    de: "Diese Wallet ist auf diesem Dienst falsch eingerichtet (Schlüssel nicht lesbar): Nutzen Sie bis dahin die Web-Karte.",
    it: "Questo wallet è configurato male su questo servizio (chiave illeggibile): usate nel frattempo la tessera web.",
  },
  GOOGLE_WALLET_NOT_CONFIGURED: {
    fr: "Google Wallet n'est pas configuré sur ce service : utilisez la carte web.",
    en: "Google Wallet is not configured on this service: use the web card instead.",
    de: "Google Wallet ist auf diesem Dienst nicht eingerichtet: Nutzen Sie die Web-Karte.",
    it: "Google Wallet non è configurato su questo servizio: usate la tessera web.",
  },
  // ---- members and tiers (members issue) ----
  MEMBER_NOT_FOUND: { fr: "Membre introuvable.", en: "Member not found.", de: "Mitglied nicht gefunden.", it: "Membro non trovato." },
  TIER_NOT_FOUND: { fr: "Formule introuvable.", en: "Tier not found.", de: "Stufe nicht gefunden.", it: "Livello non trovato." },
  MEMBER_EMAIL_TAKEN: {
    fr: "Un membre du club utilise déjà l'adresse {email}.",
    en: "A member of the club already uses the address {email}.",
    de: "Ein Mitglied des Clubs verwendet bereits die Adresse {email}.",
    it: "Un membro del club usa già l'indirizzo {email}.",
  },
  MEMBER_ALREADY_SUSPENDED: {
    fr: "Ce membre est déjà suspendu.",
    en: "This member is already suspended.",
    de: "Dieses Mitglied ist bereits gesperrt.",
    it: "Questo membro è già sospeso.",
  },
  MEMBER_NOT_SUSPENDED: {
    fr: "Ce membre n'est pas suspendu.",
    en: "This member is not suspended.",
    de: "Dieses Mitglied ist nicht gesperrt.",
    it: "Questo membro non è sospeso.",
  },
  MEMBER_SUSPENDED: {
    fr: "Ce membre est suspendu : réactivez-le d'abord.",
    en: "This member is suspended: reactivate them first.",
    de: "Dieses Mitglied ist gesperrt: zuerst reaktivieren.",
    it: "Questo membro è sospeso: riattivalo prima.",
  },
  NO_ACTIVE_SUBSCRIPTION: {
    fr: "Ce membre n'a pas d'abonnement à renouvellement automatique en cours.",
    en: "This member has no automatically renewing subscription.",
    de: "Dieses Mitglied hat kein automatisch verlängertes Abonnement.",
    it: "Questo membro non ha un abbonamento a rinnovo automatico.",
  },
  EXTEND_NOT_LATER: {
    fr: "La nouvelle date de fin doit être postérieure à la fin actuelle ({end}).",
    en: "The new end date must be later than the current end ({end}).",
    de: "Das neue Enddatum muss nach dem aktuellen Ende ({end}) liegen.",
    it: "La nuova data di fine deve essere successiva alla fine attuale ({end}).",
  },
  EXTEND_ONE_OF: {
    fr: "Donnez extend_until ou extend_months, pas les deux.",
    en: "Give extend_until or extend_months, not both.",
    de: "Entweder extend_until oder extend_months angeben, nicht beides.",
    it: "Indica extend_until o extend_months, non entrambi.",
  },
  INVALID_MEMBER_IDS: {
    fr: "Liste d'identifiants de membres séparés par des virgules attendue.",
    en: "Expected a comma-separated list of member ids.",
    de: "Kommagetrennte Liste von Mitglieds-IDs erwartet.",
    it: "Atteso un elenco di id di membri separati da virgole.",
  },
  CARD_EMAIL_FAILED: {
    fr: "L'e-mail de la carte n'a pas pu être envoyé : {reason}",
    en: "The card email could not be sent: {reason}",
    de: "Die Karten-E-Mail konnte nicht gesendet werden: {reason}",
    it: "L'email della tessera non è stata inviata: {reason}",
  },
  IMPORT_EMPTY: {
    fr: "Le fichier est vide ou n'a pas de ligne d'en-tête.",
    en: "The file is empty or has no header line.",
    de: "Die Datei ist leer oder hat keine Kopfzeile.",
    it: "Il file è vuoto o non ha una riga di intestazione.",
  },
  IMPORT_NO_EMAIL_COLUMN: {
    fr: "Aucune colonne e-mail trouvée (en-têtes reconnus : email, e-mail, courriel).",
    en: "No email column found (recognised headings: email, e-mail, courriel).",
    de: "Keine E-Mail-Spalte gefunden (erkannte Überschriften: email, e-mail, courriel).",
    it: "Nessuna colonna email trovata (intestazioni riconosciute: email, e-mail, courriel).",
  },
  IMPORT_INVALID_EMAIL: {
    fr: "Adresse e-mail invalide : « {value} ».",
    en: "Invalid email address: “{value}”.",
    de: "Ungültige E-Mail-Adresse: „{value}“.",
    it: "Indirizzo email non valido: «{value}».",
  },
  IMPORT_MISSING_FIELD: {
    fr: "Champ « {field} » manquant.",
    en: "Missing field “{field}”.",
    de: "Feld „{field}“ fehlt.",
    it: "Campo «{field}» mancante.",
  },
  IMPORT_INVALID_DATE: {
    fr: "Date invalide dans « {field} » : « {value} » (AAAA-MM-JJ ou JJ.MM.AAAA).",
    en: "Invalid date in “{field}”: “{value}” (YYYY-MM-DD or DD.MM.YYYY).",
    de: "Ungültiges Datum in „{field}“: „{value}“ (JJJJ-MM-TT oder TT.MM.JJJJ).",
    it: "Data non valida in «{field}»: «{value}» (AAAA-MM-GG o GG.MM.AAAA).",
  },
  IMPORT_INVALID_STATUS: {
    fr: "Statut de paiement inconnu : « {value} » (pending, paid, suspended).",
    en: "Unknown payment status: “{value}” (pending, paid, suspended).",
    de: "Unbekannter Zahlungsstatus: „{value}“ (pending, paid, suspended).",
    it: "Stato di pagamento sconosciuto: «{value}» (pending, paid, suspended).",
  },
  IMPORT_DUPLICATE_EMAIL: {
    fr: "L'adresse {email} apparaît déjà à la ligne {line}.",
    en: "The address {email} already appears on line {line}.",
    de: "Die Adresse {email} steht bereits in Zeile {line}.",
    it: "L'indirizzo {email} compare già alla riga {line}.",
  },
  IMPORT_TOO_LONG: {
    fr: "Valeur trop longue dans « {field} ».",
    en: "Value too long in “{field}”.",
    de: "Wert zu lang in „{field}“.",
    it: "Valore troppo lungo in «{field}».",
  },
  // ---- Events, tickets, registrations, check-in, promo codes, stats (events issue) ----
  EVENT_NOT_FOUND: {
    fr: "Événement introuvable.",
    en: "Event not found.",
    de: "Veranstaltung nicht gefunden.",
    it: "Evento non trovato.",
  },
  EVENT_CANCELLED: {
    fr: "Cet événement est annulé : il ne peut plus être modifié, ni recevoir d'inscription ou d'entrée.",
    en: "This event is cancelled: it takes no more changes, registrations or check-ins.",
    de: "Diese Veranstaltung ist abgesagt: keine Änderungen, Anmeldungen oder Einlässe mehr.",
    it: "Questo evento è annullato: non accetta più modifiche, iscrizioni o ingressi.",
  },
  EVENT_STATUS_TRANSITION: {
    fr: "Un événement ne peut pas passer de « {from} » à « {to} ».",
    en: "An event cannot go from “{from}” to “{to}”.",
    de: "Eine Veranstaltung kann nicht von „{from}“ zu „{to}“ wechseln.",
    it: "Un evento non può passare da «{from}» a «{to}».",
  },
  EVENT_SLUG_TAKEN: {
    fr: "L'adresse « {slug} » est déjà utilisée par un autre événement du club.",
    en: "The slug “{slug}” is already used by another event of the club.",
    de: "Der Kurzname „{slug}“ wird bereits von einer anderen Veranstaltung des Clubs verwendet.",
    it: "Lo slug «{slug}» è già usato da un altro evento del club.",
  },
  INVALID_SLUG: {
    fr: "Seules les minuscules, chiffres et tirets sont permis.",
    en: "Only lower-case letters, digits and hyphens are allowed.",
    de: "Nur Kleinbuchstaben, Ziffern und Bindestriche sind erlaubt.",
    it: "Sono ammessi solo lettere minuscole, cifre e trattini.",
  },
  TICKET_NOT_FOUND: {
    fr: "Billet introuvable pour cet événement.",
    en: "Ticket not found for this event.",
    de: "Ticket für diese Veranstaltung nicht gefunden.",
    it: "Biglietto non trovato per questo evento.",
  },
  TICKET_INACTIVE: {
    fr: "Ce billet n'est plus proposé.",
    en: "This ticket is no longer offered.",
    de: "Dieses Ticket wird nicht mehr angeboten.",
    it: "Questo biglietto non è più disponibile.",
  },
  EVENT_FULL: {
    fr: "L'événement est complet.",
    en: "The event is full.",
    de: "Die Veranstaltung ist ausgebucht.",
    it: "L'evento è al completo.",
  },
  TICKET_SOLD_OUT: {
    fr: "Ce billet est épuisé.",
    en: "This ticket is sold out.",
    de: "Dieses Ticket ist ausverkauft.",
    it: "Questo biglietto è esaurito.",
  },
  REGISTRATION_NOT_OPEN: {
    fr: "Les inscriptions ouvrent le {at}.",
    en: "Registration opens on {at}.",
    de: "Die Anmeldung öffnet am {at}.",
    it: "Le iscrizioni aprono il {at}.",
  },
  REGISTRATION_CLOSED: {
    fr: "Les inscriptions sont closes.",
    en: "Registration is closed.",
    de: "Die Anmeldung ist geschlossen.",
    it: "Le iscrizioni sono chiuse.",
  },
  EVENT_MEMBERS_ONLY: {
    fr: "Cet événement est réservé aux membres : indiquez votre code de membre.",
    en: "This event is for members only: give your member code.",
    de: "Diese Veranstaltung ist nur für Mitglieder: geben Sie Ihren Mitgliedscode an.",
    it: "Questo evento è riservato ai soci: indica il tuo codice socio.",
  },
  TICKET_MEMBERS_ONLY: {
    fr: "Ce billet est réservé aux membres : indiquez votre code de membre.",
    en: "This ticket is for members only: give your member code.",
    de: "Dieses Ticket ist nur für Mitglieder: geben Sie Ihren Mitgliedscode an.",
    it: "Questo biglietto è riservato ai soci: indica il tuo codice socio.",
  },
  MEMBER_CODE_UNKNOWN: {
    fr: "Ce code de membre est inconnu.",
    en: "This member code is unknown.",
    de: "Dieser Mitgliedscode ist unbekannt.",
    it: "Questo codice socio è sconosciuto.",
  },
  MEMBERSHIP_NOT_ACTIVE: {
    fr: "L'adhésion liée à ce code de membre n'est pas active.",
    en: "The membership behind this member code is not active.",
    de: "Die Mitgliedschaft zu diesem Mitgliedscode ist nicht aktiv.",
    it: "L'adesione legata a questo codice socio non è attiva.",
  },
  REGISTRATION_NOT_FOUND: {
    fr: "Inscription introuvable.",
    en: "Registration not found.",
    de: "Anmeldung nicht gefunden.",
    it: "Iscrizione non trovata.",
  },
  PROMO_CODE_TAKEN: {
    fr: "Le code promo « {code} » existe déjà dans ce club.",
    en: "The promo code “{code}” already exists in this club.",
    de: "Der Aktionscode „{code}“ existiert in diesem Club bereits.",
    it: "Il codice promozionale «{code}» esiste già in questo club.",
  },
  PROMO_PERCENT_MAX: {
    fr: "Une remise en pourcentage ne peut pas dépasser 100.",
    en: "A percent discount cannot exceed 100.",
    de: "Ein prozentualer Rabatt darf 100 nicht überschreiten.",
    it: "Uno sconto percentuale non può superare 100.",
  },
  PROMO_EVENT_SCOPE: {
    fr: "Un code lié à un événement a la portée « event ».",
    en: "A code tied to an event has the scope “event”.",
    de: "Ein an eine Veranstaltung gebundener Code hat den Bereich „event“.",
    it: "Un codice legato a un evento ha l'ambito «event».",
  },
  PROMO_CODE_UNKNOWN: {
    fr: "Ce code promo n'existe pas ou n'est plus actif.",
    en: "This promo code does not exist or is no longer active.",
    de: "Dieser Aktionscode existiert nicht oder ist nicht mehr aktiv.",
    it: "Questo codice promozionale non esiste o non è più attivo.",
  },
  PROMO_CODE_NOT_VALID_NOW: {
    fr: "Ce code promo n'est pas valable à cette date.",
    en: "This promo code is not valid at this date.",
    de: "Dieser Aktionscode ist zu diesem Datum nicht gültig.",
    it: "Questo codice promozionale non è valido in questa data.",
  },
  PROMO_CODE_EXHAUSTED: {
    fr: "Ce code promo a atteint son nombre maximal d'utilisations.",
    en: "This promo code has reached its maximum number of uses.",
    de: "Dieser Aktionscode hat die maximale Anzahl an Verwendungen erreicht.",
    it: "Questo codice promozionale ha raggiunto il numero massimo di utilizzi.",
  },
  PROMO_CODE_NOT_APPLICABLE: {
    fr: "Ce code promo ne s'applique pas à cette inscription.",
    en: "This promo code does not apply to this registration.",
    de: "Dieser Aktionscode gilt nicht für diese Anmeldung.",
    it: "Questo codice promozionale non si applica a questa iscrizione.",
  },
  PROMO_TIERS_MEMBERSHIP_ONLY: {
    fr: "« applies_to_tier_ids » vaut pour un code d'adhésion (scope membership), pas pour un code d'événement.",
    en: "“applies_to_tier_ids” is for a membership code (scope membership), not an event code.",
    de: "„applies_to_tier_ids“ gilt für einen Mitgliedschaftscode (scope membership), nicht für einen Veranstaltungscode.",
    it: "«applies_to_tier_ids» vale per un codice di adesione (scope membership), non per un codice evento.",
  },
  DATE_OUT_OF_RANGE: {
    fr: "« {field} » doit tomber entre l'an 0001 et l'an 9999 (heure UTC).",
    en: "“{field}” must fall between the years 0001 and 9999 (UTC).",
    de: "„{field}“ muss zwischen den Jahren 0001 und 9999 liegen (UTC).",
    it: "«{field}» deve cadere tra l'anno 0001 e l'anno 9999 (UTC).",
  },
  // Apple Wallet (lib/cards/apple)
  APPLE_WALLET_NOT_CONFIGURED: {
    fr: "Apple Wallet n'est pas configuré sur ce serveur.",
    en: "Apple Wallet is not configured on this server.",
    de: "Apple Wallet ist auf diesem Server nicht eingerichtet.",
    it: "Apple Wallet non è configurato su questo server.",
  },
  PASS_NOT_FOUND: {
    fr: "Carte de membre introuvable.",
    en: "Membership card not found.",
    de: "Mitgliedskarte nicht gefunden.",
    it: "Tessera non trovata.",
  },
  PASS_UNAUTHORIZED: {
    fr: "Jeton d'authentification de la carte manquant ou invalide.",
    en: "Missing or invalid pass authentication token.",
    de: "Authentifizierungstoken der Karte fehlt oder ist ungültig.",
    it: "Token di autenticazione della tessera mancante o non valido.",
  },
  // CLI (scripts/cli.ts)
  BACKUP_TARGET_EXISTS: {
    fr: "Le fichier {path} existe déjà : choisissez un autre nom pour la sauvegarde.",
    en: "The file {path} already exists: choose another name for the backup.",
    de: "Die Datei {path} existiert bereits: wählen Sie einen anderen Namen für die Sicherung.",
    it: "Il file {path} esiste già: scegliete un altro nome per il backup.",
  },
  // ---- Reliability (issue 6): defects its suites found ----
  MEMBERSHIP_END_TOO_LATE: {
    fr: "La date de fin d'adhésion ne peut pas dépasser le {max}.",
    en: "The membership end date cannot be later than {max}.",
    de: "Das Ende der Mitgliedschaft kann nicht nach dem {max} liegen.",
    it: "La data di fine dell'adesione non può essere successiva al {max}.",
  },
} satisfies Record<string, Texts>;

export type MessageCode = keyof typeof MESSAGES;

/** Adds an area's messages to the table (each lib area registers its own codes). */
export function defineMessages<T extends Record<string, Texts>>(messages: T): T {
  Object.assign(MESSAGES, messages);
  return messages;
}
