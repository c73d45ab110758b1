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
  // CLI (scripts/cli.ts)
  BACKUP_TARGET_EXISTS: {
    fr: "Le fichier {path} existe déjà : choisissez un autre nom pour la sauvegarde.",
    en: "The file {path} already exists: choose another name for the backup.",
    de: "Die Datei {path} existiert bereits: wählen Sie einen anderen Namen für die Sicherung.",
    it: "Il file {path} esiste già: scegliete un altro nome per il backup.",
  },
} satisfies Record<string, Texts>;

export type MessageCode = keyof typeof MESSAGES;

/** Adds an area's messages to the table (each lib area registers its own codes). */
export function defineMessages<T extends Record<string, Texts>>(messages: T): T {
  Object.assign(MESSAGES, messages);
  return messages;
}
