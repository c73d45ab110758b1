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
} satisfies Record<string, Texts>;

export type MessageCode = keyof typeof MESSAGES;

/** Adds an area's messages to the table (each lib area registers its own codes). */
export function defineMessages<T extends Record<string, Texts>>(messages: T): T {
  Object.assign(MESSAGES, messages);
  return messages;
}
