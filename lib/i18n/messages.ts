// Every human-readable message of the API, in the four languages a club can choose (`locale`).
// Keys are the stable error codes clients may rely on; the texts may be improved freely.

export const LOCALES = ["fr", "en", "de", "it"] as const;
export type Locale = (typeof LOCALES)[number];

type Texts = Record<Locale, string>;

export const MESSAGES = {
  // ---- Requests and the server ----
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
  MALFORMED_FORM: {
    fr: "Le formulaire envoyé n'a pas pu être lu.",
    en: "The form sent could not be read.",
    de: "Das gesendete Formular konnte nicht gelesen werden.",
    it: "Il modulo inviato non ha potuto essere letto.",
  },
  UNSUPPORTED_MEDIA_TYPE: {
    fr: "Cette route prend un corps JSON (Content-Type: application/json), pas {type}.",
    en: "This route takes a JSON body (Content-Type: application/json), not {type}.",
    de: "Diese Route nimmt einen JSON-Anfragetext (Content-Type: application/json), nicht {type}.",
    it: "Questa route accetta un corpo JSON (Content-Type: application/json), non {type}.",
  },
  BODY_TOO_DEEP: {
    fr: "Le JSON est imbriqué sur plus de {max} niveaux.",
    en: "The JSON is nested more than {max} levels deep.",
    de: "Das JSON ist tiefer als {max} Ebenen verschachtelt.",
    it: "Il JSON è annidato per più di {max} livelli.",
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
  TEXT_CONTROL_CHARACTER: {
    fr: "Le texte contient un caractère de contrôle (saut de ligne, NUL...) ou d'inversion de sens (U+202E...) qui n'a pas sa place ici.",
    en: "The text contains a control character (line break, NUL...) or a direction override (U+202E...) that is not allowed here.",
    de: "Der Text enthält ein Steuerzeichen (Zeilenumbruch, NUL...) oder eine Richtungsumkehr (U+202E...), die hier nicht erlaubt sind.",
    it: "Il testo contiene un carattere di controllo (a capo, NUL...) o di inversione di direzione (U+202E...) non ammesso qui.",
  },
  LOCAL_TIME_SKIPPED: {
    fr: "{time} n'existe pas en {zone} : les horloges avancent d'une heure cette nuit-là (heure d'été). Choisissez une autre heure.",
    en: "{time} does not exist in {zone}: the clocks go forward an hour that night (summer time). Choose another time.",
    de: "{time} gibt es in {zone} nicht: die Uhren werden in dieser Nacht eine Stunde vorgestellt (Sommerzeit). Wählen Sie eine andere Uhrzeit.",
    it: "{time} non esiste in {zone}: quella notte gli orologi vanno avanti di un'ora (ora legale). Scegli un'altra ora.",
  },
  AMOUNT_TYPED: {
    fr: "Saisissez un montant comme 50 ou 50.00.",
    en: "Enter an amount such as 50 or 50.00.",
    de: "Geben Sie einen Betrag wie 50 oder 50.00 ein.",
    it: "Inserisci un importo come 50 o 50.00.",
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
  // A path called with a method it does not take (the MCP endpoint takes POST only)
  METHOD_NOT_ALLOWED: {
    fr: "{path} n'accepte que {allow}, pas {method}.",
    en: "{path} only accepts {allow}, not {method}.",
    de: "{path} akzeptiert nur {allow}, nicht {method}.",
    it: "{path} accetta solo {allow}, non {method}.",
  },
  CORS_ORIGIN_NOT_ALLOWED: {
    fr: "Les pages de {origin} ne peuvent pas appeler cette route : ajoutez l'origine à CORS_ORIGINS.",
    en: "Pages of {origin} may not call this route: add the origin to CORS_ORIGINS.",
    de: "Seiten von {origin} dürfen diese Route nicht aufrufen: Ursprung in CORS_ORIGINS eintragen.",
    it: "Le pagine di {origin} non possono chiamare questa route: aggiungere l'origine a CORS_ORIGINS.",
  },
  CSRF_INVALID: {
    fr: "Le formulaire a expiré ou ne vient pas du tableau de bord : rechargez la page et réessayez.",
    en: "The form has expired or did not come from the dashboard: reload the page and try again.",
    de: "Das Formular ist abgelaufen oder stammt nicht aus dem Dashboard: Seite neu laden und erneut versuchen.",
    it: "Il modulo è scaduto o non proviene dalla dashboard: ricarica la pagina e riprova.",
  },
  DATABASE_UNAVAILABLE: {
    fr: "La base de données ne répond pas.",
    en: "The database does not answer.",
    de: "Die Datenbank antwortet nicht.",
    it: "Il database non risponde.",
  },
  DATABASE_BUSY: {
    fr: "La base de données est occupée : réessayez dans un instant.",
    en: "The database is busy: try again in a moment.",
    de: "Die Datenbank ist belegt: bitte gleich noch einmal versuchen.",
    it: "Il database è occupato: riprovare tra un istante.",
  },
  DATABASE_CANNOT_WRITE: {
    fr: "La base de données ne peut pas enregistrer pour le moment (disque plein ou en lecture seule) : réessayez plus tard.",
    en: "The database cannot save anything at the moment (disk full or read-only): try again later.",
    de: "Die Datenbank kann im Moment nichts speichern (Datenträger voll oder schreibgeschützt): bitte später erneut versuchen.",
    it: "Il database non può salvare nulla al momento (disco pieno o in sola lettura): riprovare più tardi.",
  },
  STARTING: {
    fr: "Le serveur démarre : réessayez dans un instant.",
    en: "The server is starting: try again in a moment.",
    de: "Der Server startet: bitte gleich noch einmal versuchen.",
    it: "Il server si sta avviando: riprovare tra un istante.",
  },
  INTERNAL: {
    fr: "Erreur interne du serveur.",
    en: "Internal server error.",
    de: "Interner Serverfehler.",
    it: "Errore interno del server.",
  },

  // ---- Keys, sessions and what a caller may do ----
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
  KEY_NOT_FOUND: {
    fr: "Clé d'API introuvable.",
    en: "API key not found.",
    de: "API-Schlüssel nicht gefunden.",
    it: "Chiave API non trovata.",
  },
  KEY_ALREADY_REVOKED: {
    fr: "Cette clé est déjà révoquée.",
    en: "This key is already revoked.",
    de: "Dieser Schlüssel ist bereits widerrufen.",
    it: "Questa chiave è già revocata.",
  },
  KEY_SCOPES_EMPTY: {
    fr: "Choisissez au moins un domaine.",
    en: "Choose at least one area.",
    de: "Wählen Sie mindestens einen Bereich.",
    it: "Scegliete almeno un ambito.",
  },
  KEY_EXPIRES_IN_PAST: {
    fr: "La date d'expiration {expires_at} est déjà passée : choisissez une date future.",
    en: "The expiry time {expires_at} has already passed: choose a time in the future.",
    de: "Das Ablaufdatum {expires_at} ist bereits vorbei: wählen Sie einen Zeitpunkt in der Zukunft.",
    it: "La data di scadenza {expires_at} è già passata: scegliete una data futura.",
  },
  KEY_OF_ANOTHER_ADMIN: {
    fr: "Révoquer la clé d'un autre administrateur demande le droit de modifier les accès.",
    en: "Revoking another admin's key needs the right to edit access control.",
    de: "Den Schlüssel eines anderen Administrators zu widerrufen erfordert das Recht, Zugriffe zu bearbeiten.",
    it: "Revocare la chiave di un altro amministratore richiede il diritto di modificare gli accessi.",
  },
  SCOPES_EXCEED_ADMIN: {
    fr: "Un administrateur en lecture seule ne peut créer que des clés en lecture.",
    en: "A read-only admin can only create view keys.",
    de: "Ein Administrator mit Lesezugriff kann nur Leseschlüssel erstellen.",
    it: "Un amministratore in sola lettura può creare solo chiavi di lettura.",
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

  // ---- Admins: sign-in, passwords, sign-in links ----
  ADMIN_NOT_FOUND: {
    fr: "Administrateur introuvable.",
    en: "Admin not found.",
    de: "Administrator nicht gefunden.",
    it: "Amministratore non trovato.",
  },
  ADMIN_ACCESS_ENDED: {
    fr: "L'accès de l'administrateur de cette clé a pris fin.",
    en: "The access of this key's admin has ended.",
    de: "Der Zugang des Administrators dieses Schlüssels ist beendet.",
    it: "L'accesso dell'amministratore di questa chiave è terminato.",
  },
  EMAIL_TAKEN: {
    fr: "L'adresse {email} est déjà utilisée.",
    en: "The address {email} is already in use.",
    de: "Die Adresse {email} wird bereits verwendet.",
    it: "L'indirizzo {email} è già in uso.",
  },
  INVALID_CREDENTIALS: {
    fr: "E-mail ou mot de passe incorrect.",
    en: "Wrong email or password.",
    de: "E-Mail oder Passwort falsch.",
    it: "Email o password errati.",
  },
  LOGIN_TOO_MANY_FAILURES: {
    fr: "Trop de mots de passe erronés pour ce compte : réessayez dans {seconds} s.",
    en: "Too many wrong passwords for this account: try again in {seconds} s.",
    de: "Zu viele falsche Passwörter für dieses Konto: erneut versuchen in {seconds} s.",
    it: "Troppe password errate per questo account: riprova tra {seconds} s.",
  },
  SIGN_IN_LINK_USED: {
    fr: "Ce lien de connexion a déjà servi ou a été remplacé par un plus récent. Connectez-vous avec votre mot de passe, ou demandez un nouveau lien à qui gère le serveur (bun run cli admins sign-in-link --email …).",
    en: "This sign-in link has already been used, or a newer one replaced it. Sign in with your password, or ask whoever runs the server for a new link (bun run cli admins sign-in-link --email …).",
    de: "Dieser Anmeldelink wurde schon benutzt oder durch einen neueren ersetzt. Melden Sie sich mit Ihrem Passwort an oder bitten Sie, wer den Server betreibt, um einen neuen Link (bun run cli admins sign-in-link --email …).",
    it: "Questo link di accesso è già stato usato o sostituito da uno più recente. Accedi con la tua password, o chiedi un nuovo link a chi gestisce il server (bun run cli admins sign-in-link --email …).",
  },
  SIGN_IN_LINK_EXPIRED: {
    fr: "Ce lien de connexion a expiré (il vaut {hours} heures). Demandez-en un nouveau à qui gère le serveur (bun run cli admins sign-in-link --email …).",
    en: "This sign-in link has expired (it works for {hours} hours). Ask whoever runs the server for a new one (bun run cli admins sign-in-link --email …).",
    de: "Dieser Anmeldelink ist abgelaufen (er gilt {hours} Stunden). Bitten Sie, wer den Server betreibt, um einen neuen (bun run cli admins sign-in-link --email …).",
    it: "Questo link di accesso è scaduto (vale {hours} ore). Chiedine uno nuovo a chi gestisce il server (bun run cli admins sign-in-link --email …).",
  },
  PASSWORD_TOO_SHORT: {
    fr: "Choisissez un mot de passe d'au moins {min} caractères (quelques mots font l'affaire).",
    en: "Choose a password of at least {min} characters (a few words will do).",
    de: "Wählen Sie ein Passwort mit mindestens {min} Zeichen (ein paar Wörter genügen).",
    it: "Scegli una password di almeno {min} caratteri (bastano alcune parole).",
  },
  PASSWORDS_DIFFER: {
    fr: "Les deux mots de passe ne sont pas identiques.",
    en: "The two passwords are not the same.",
    de: "Die beiden Passwörter stimmen nicht überein.",
    it: "Le due password non coincidono.",
  },

  // ---- OAuth grants of assistants ----
  GRANT_NOT_FOUND: {
    fr: "Accès d'application introuvable.",
    en: "App access not found.",
    de: "App-Zugriff nicht gefunden.",
    it: "Accesso dell'applicazione non trovato.",
  },
  GRANT_ALREADY_REVOKED: {
    fr: "Cet accès d'application est déjà révoqué.",
    en: "This app access is already revoked.",
    de: "Dieser App-Zugriff ist bereits widerrufen.",
    it: "Questo accesso dell'applicazione è già revocato.",
  },
  GRANT_OF_ANOTHER_ADMIN: {
    fr: "Révoquer l'accès accordé par un autre administrateur demande le droit de modifier les accès.",
    en: "Revoking access granted by another admin needs the right to edit access control.",
    de: "Einen von einem anderen Administrator gewährten Zugriff zu widerrufen erfordert das Recht, Zugriffe zu bearbeiten.",
    it: "Revocare l'accesso concesso da un altro amministratore richiede il diritto di modificare gli accessi.",
  },

  // ---- Idempotency keys ----
  IDEMPOTENCY_KEY_INVALID: {
    fr: "L'en-tête Idempotency-Key doit compter de 1 à {max} caractères ASCII visibles (sans espace).",
    en: "The Idempotency-Key header must be 1 to {max} visible ASCII characters (no space).",
    de: "Der Header Idempotency-Key muss 1 bis {max} sichtbare ASCII-Zeichen lang sein (ohne Leerzeichen).",
    it: "L'intestazione Idempotency-Key deve contenere da 1 a {max} caratteri ASCII visibili (senza spazi).",
  },
  IDEMPOTENCY_KEY_REUSED: {
    fr: "Cette clé d'idempotence a déjà servi pour une autre requête : utilisez une nouvelle clé pour une requête différente.",
    en: "This idempotency key was already used for another request: use a new key for a different request.",
    de: "Dieser Idempotenzschlüssel wurde bereits für eine andere Anfrage verwendet: verwenden Sie für eine andere Anfrage einen neuen Schlüssel.",
    it: "Questa chiave di idempotenza è già stata usata per un'altra richiesta: usate una nuova chiave per una richiesta diversa.",
  },
  IDEMPOTENCY_KEY_IN_USE: {
    fr: "Une requête avec cette clé d'idempotence est encore en cours : réessayez dans un instant.",
    en: "A request with this idempotency key is still running: retry in a moment.",
    de: "Eine Anfrage mit diesem Idempotenzschlüssel läuft noch: versuchen Sie es gleich noch einmal.",
    it: "Una richiesta con questa chiave di idempotenza è ancora in corso: riprovate tra un momento.",
  },
  IDEMPOTENCY_ANSWER_ERASED: {
    fr: "La requête de cette clé d'idempotence a déjà été faite, mais sa réponse nommait un membre effacé depuis : elle ne sera pas refaite et sa réponse n'est plus gardée.",
    en: "The request of this idempotency key was already carried out, but its answer named a member erased since: it is not run again and its answer is no longer kept.",
    de: "Die Anfrage dieses Idempotenzschlüssels wurde bereits ausgeführt, ihre Antwort nannte aber ein inzwischen gelöschtes Mitglied: sie wird nicht erneut ausgeführt und ihre Antwort nicht mehr aufbewahrt.",
    it: "La richiesta di questa chiave di idempotenza è già stata eseguita, ma la sua risposta nominava un membro cancellato da allora: non viene rieseguita e la sua risposta non è più conservata.",
  },
  KEYED_WRITE_UNDONE: {
    fr: "Une partie de cette requête a rencontré une modification faite en même temps ; rien n'en a été enregistré : renvoyez-la avec la même clé d'idempotence.",
    en: "Part of this request met a change made at the same time; nothing of it was recorded: send it again with the same idempotency key.",
    de: "Ein Teil dieser Anfrage traf auf eine gleichzeitige Änderung; nichts davon wurde gespeichert: senden Sie sie mit demselben Idempotenzschlüssel erneut.",
    it: "Una parte di questa richiesta ha incontrato una modifica fatta nello stesso momento; nulla è stato registrato: inviatela di nuovo con la stessa chiave di idempotenza.",
  },

  // ---- MCP: the transport's checks and the writes an assistant asks about first ----
  MCP_ORIGIN_NOT_ALLOWED: {
    fr: "Le point MCP ne répond pas aux pages web de {origin} : un client MCP n'envoie pas d'en-tête Origin, et l'adresse d'un outil web doit figurer dans CORS_ORIGINS.",
    en: "The MCP endpoint does not answer web pages of {origin}: an MCP client sends no Origin header, and a web tool's address must be listed in CORS_ORIGINS.",
    de: "Der MCP-Endpunkt antwortet keinen Webseiten von {origin}: Ein MCP-Client sendet keinen Origin-Header, und die Adresse eines Web-Werkzeugs muss in CORS_ORIGINS stehen.",
    it: "L'endpoint MCP non risponde alle pagine web di {origin}: un client MCP non invia l'intestazione Origin, e l'indirizzo di uno strumento web deve figurare in CORS_ORIGINS.",
  },
  MCP_HOST_NOT_ALLOWED: {
    fr: "Ce serveur n'écoute que sur cette machine et ne répond sur /mcp qu'à son propre nom, pas à {host} (BASE_URL donne l'adresse par laquelle on l'atteint).",
    en: "This server listens on this machine only and answers /mcp under its own name only, not {host} (BASE_URL gives the address it is reached at).",
    de: "Dieser Server lauscht nur auf diesem Rechner und antwortet auf /mcp nur unter seinem eigenen Namen, nicht unter {host} (BASE_URL nennt die Adresse, unter der er erreicht wird).",
    it: "Questo server ascolta solo su questa macchina e risponde su /mcp solo al proprio nome, non a {host} (BASE_URL indica l'indirizzo con cui lo si raggiunge).",
  },
  CONFIRMATION_REQUIRED: {
    fr: "Rien n'a été fait. {question} Demandez-le à l'utilisateur, puis rappelez l'outil avec confirm: true (ce qu'il ferait : `would`).",
    en: "Nothing was done. {question} Ask the user, then call the tool again with confirm: true (what it would do: `would`).",
    de: "Es wurde nichts getan. {question} Fragen Sie den Benutzer und rufen Sie das Werkzeug dann mit confirm: true erneut auf (was es tun würde: `would`).",
    it: "Non è stato fatto nulla. {question} Chiedetelo all'utente, poi richiamate lo strumento con confirm: true (cosa farebbe: `would`).",
  },
  CONFIRM_ERASE_MEMBER: {
    fr: "Effacer définitivement {name} ({email}) ? Cela ne peut pas être annulé.",
    en: "Erase {name} ({email}) for good? This cannot be undone.",
    de: "{name} ({email}) endgültig löschen? Das kann nicht rückgängig gemacht werden.",
    it: "Cancellare definitivamente {name} ({email})? Non si può annullare.",
  },
  CONFIRM_REJECT_MEMBER: {
    fr: "Refuser la demande de {name} ({email}) ? La personne est effacée et reçoit la décision par e-mail.",
    en: "Reject the application of {name} ({email})? They are erased and mailed the decision.",
    de: "Den Antrag von {name} ({email}) ablehnen? Die Person wird gelöscht und erhält die Entscheidung per E-Mail.",
    it: "Respingere la domanda di {name} ({email})? La persona viene cancellata e riceve la decisione per e-mail.",
  },
  CONFIRM_IMPORT_MEMBERS: {
    fr: "Importer les membres : {create} à créer, {update} à mettre à jour ?",
    en: "Import the members: {create} to create, {update} to update?",
    de: "Die Mitglieder importieren: {create} neu, {update} zu aktualisieren?",
    it: "Importare i membri: {create} da creare, {update} da aggiornare?",
  },
  CONFIRM_RUN_INVOICES: {
    fr: "Créer {count} facture(s) de cotisation ({totals}) ?",
    en: "Make {count} membership invoice(s) ({totals})?",
    de: "{count} Beitragsrechnung(en) erstellen ({totals})?",
    it: "Creare {count} fattura/e di quota ({totals})?",
  },
  CONFIRM_SEND_MAILING: {
    fr: "Envoyer « {subject} » à {count} membre(s) ({skipped} écarté(s) : désinscrits ou adresse en échec) ?",
    en: "Send “{subject}” to {count} member(s) ({skipped} skipped: opted out or address bounced)?",
    de: "„{subject}“ an {count} Mitglied(er) senden ({skipped} übersprungen: abgemeldet oder Adresse unzustellbar)?",
    it: "Inviare «{subject}» a {count} membro/i ({skipped} esclusi: disiscritti o indirizzo respinto)?",
  },
  CONFIRM_IMPORT_STATEMENT: {
    fr: "Enregistrer le relevé bancaire : {matched} paiement(s) reconnus sur {lines} lignes ?",
    en: "Record the bank statement: {matched} payment(s) matched of {lines} lines?",
    de: "Den Kontoauszug buchen: {matched} Zahlung(en) von {lines} Zeilen zugeordnet?",
    it: "Registrare l'estratto conto: {matched} pagamento/i riconosciuti su {lines} righe?",
  },

  // ---- The club: its settings and its logo ----
  CLUB_NOT_FOUND: {
    fr: "Club introuvable.",
    en: "Club not found.",
    de: "Club nicht gefunden.",
    it: "Club non trovato.",
  },
  CLUB_NOT_EMPTY: {
    fr: "Le club a déjà des membres : la démo ne remplit qu'un club vide.",
    en: "The club already has members: the demo only fills an empty club.",
    de: "Der Verein hat bereits Mitglieder: die Demo füllt nur einen leeren Verein.",
    it: "Il club ha già dei membri: la demo riempie solo un club vuoto.",
  },
  INVALID_CURRENCY: {
    fr: "Code de monnaie ISO 4217 attendu (CHF, EUR...).",
    en: "Expected an ISO 4217 currency code (CHF, EUR...).",
    de: "ISO-4217-Währungscode erwartet (CHF, EUR...).",
    it: "Codice di valuta ISO 4217 atteso (CHF, EUR...).",
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
  INVALID_IBAN: {
    fr: "IBAN invalide : vérifiez le pays, la longueur et les chiffres de contrôle.",
    en: "Not a valid IBAN: check its country, length and check digits.",
    de: "Ungültige IBAN: Land, Länge und Prüfziffern prüfen.",
    it: "IBAN non valido: verificare paese, lunghezza e cifre di controllo.",
  },
  DUNNING_DAYS_ORDER: {
    fr: "Jours de rappel attendus en ordre croissant, chacun une fois (par ex. 10, 30).",
    en: "Expected the reminder days in ascending order, each once (e.g. 10, 30).",
    de: "Mahntage in aufsteigender Reihenfolge erwartet, jeder einmal (z. B. 10, 30).",
    it: "Giorni di sollecito attesi in ordine crescente, ciascuno una volta (ad es. 10, 30).",
  },
  LOGO_FILE_MISSING: {
    fr: "Envoyez l'image du logo (PNG, JPEG, WebP ou SVG).",
    en: "Send the logo's image (PNG, JPEG, WebP or SVG).",
    de: "Senden Sie das Bild des Logos (PNG, JPEG, WebP oder SVG).",
    it: "Inviate l'immagine del logo (PNG, JPEG, WebP o SVG).",
  },
  LOGO_NOT_AN_IMAGE: {
    fr: "Ce fichier n'est pas une image PNG, JPEG, WebP ou SVG lisible.",
    en: "This file is not a readable PNG, JPEG, WebP or SVG image.",
    de: "Diese Datei ist kein lesbares PNG-, JPEG-, WebP- oder SVG-Bild.",
    it: "Questo file non è un'immagine PNG, JPEG, WebP o SVG leggibile.",
  },
  LOGO_TOO_MANY_PIXELS: {
    fr: "L'image est trop grande : au plus {max} pixels.",
    en: "The image is too large: at most {max} pixels.",
    de: "Das Bild ist zu groß: höchstens {max} Pixel.",
    it: "L'immagine è troppo grande: al massimo {max} pixel.",
  },
  LOGO_TOO_COMPLEX: {
    fr: "Ce dessin SVG est trop complexe : il n'a pas pu être dessiné en {seconds} secondes. Simplifiez-le (filtres, éléments répétés) ou envoyez-le en PNG.",
    en: "This SVG drawing is too complex: it could not be drawn within {seconds} seconds. Simplify it (filters, repeated elements) or send it as a PNG.",
    de: "Diese SVG-Zeichnung ist zu komplex: Sie konnte nicht innerhalb von {seconds} Sekunden gezeichnet werden. Vereinfachen Sie sie (Filter, wiederholte Elemente) oder senden Sie sie als PNG.",
    it: "Questo disegno SVG è troppo complesso: non è stato possibile disegnarlo entro {seconds} secondi. Semplificatelo (filtri, elementi ripetuti) o inviatelo come PNG.",
  },
  LOGO_NOT_FOUND: {
    fr: "Ce club n'a pas de logo.",
    en: "This club has no logo.",
    de: "Dieser Verein hat kein Logo.",
    it: "Questo club non ha un logo.",
  },

  // ---- Members and tiers ----
  MEMBER_NOT_FOUND: { fr: "Membre introuvable.", en: "Member not found.", de: "Mitglied nicht gefunden.", it: "Membro non trovato." },
  MEMBER_EMAIL_TAKEN: {
    fr: "Un membre du club utilise déjà l'adresse {email}.",
    en: "A member of the club already uses the address {email}.",
    de: "Ein Mitglied des Clubs verwendet bereits die Adresse {email}.",
    it: "Un membro del club usa già l'indirizzo {email}.",
  },
  MEMBER_EXISTS: {
    fr: "Un membre a déjà l'adresse {email} : ligne laissée de côté, rien n'est changé (mode=update pour mettre à jour).",
    en: "A member already has the address {email}: line left out, nothing changed (mode=update to update).",
    de: "Ein Mitglied hat bereits die Adresse {email}: Zeile übergangen, nichts geändert (mode=update zum Aktualisieren).",
    it: "Un membro ha già l'indirizzo {email}: riga tralasciata, nulla è cambiato (mode=update per aggiornare).",
  },
  REASON_REQUIRED: {
    fr: "Indiquez la raison de cette correction (elle est gardée dans l'historique du membre).",
    en: "Give the reason for this correction (it is kept in the member's history).",
    de: "Geben Sie den Grund für diese Korrektur an (er wird im Verlauf des Mitglieds gespeichert).",
    it: "Indicate il motivo di questa correzione (è conservato nella cronologia del membro).",
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
  END_NOT_SHORTENED: {
    fr: "La fin d'adhésion reste le {current} : le fichier donne {file}, plus tôt (allow_shorten=true pour raccourcir).",
    en: "The membership end stays {current}: the file gives {file}, earlier (allow_shorten=true to shorten).",
    de: "Das Mitgliedschaftsende bleibt {current}: die Datei nennt {file}, früher (allow_shorten=true zum Verkürzen).",
    it: "La fine dell'adesione resta {current}: il file indica {file}, prima (allow_shorten=true per accorciare).",
  },
  MEMBERSHIP_END_BEFORE_START: {
    fr: "La fin d'adhésion ({end}) ne peut pas précéder son début ({start}).",
    en: "The membership end ({end}) cannot be before its start ({start}).",
    de: "Das Ende der Mitgliedschaft ({end}) kann nicht vor ihrem Beginn ({start}) liegen.",
    it: "La fine dell'adesione ({end}) non può precedere il suo inizio ({start}).",
  },
  MEMBERSHIP_END_TOO_LATE: {
    fr: "La date de fin d'adhésion ne peut pas dépasser le {max}.",
    en: "The membership end date cannot be later than {max}.",
    de: "Das Ende der Mitgliedschaft kann nicht nach dem {max} liegen.",
    it: "La data di fine dell'adesione non può essere successiva al {max}.",
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
  TIER_NOT_FOUND: { fr: "Formule introuvable.", en: "Tier not found.", de: "Stufe nicht gefunden.", it: "Livello non trovato." },
  TIER_NOT_IN_CLUB: {
    fr: "« {id} » n'est pas une formule de ce club.",
    en: "“{id}” is not a tier of this club.",
    de: "„{id}“ ist keine Stufe dieses Vereins.",
    it: "«{id}» non è un livello di questo club.",
  },

  // ---- The members' import ----
  IMPORT_EMPTY: {
    fr: "Le fichier est vide ou n'a pas de ligne d'en-tête.",
    en: "The file is empty or has no header line.",
    de: "Die Datei ist leer oder hat keine Kopfzeile.",
    it: "Il file è vuoto o non ha una riga di intestazione.",
  },
  IMPORT_NO_MEMBERS: {
    fr: "Le fichier n'a aucune ligne de membre sous son en-tête.",
    en: "The file has no member line under its header line.",
    de: "Die Datei hat unter der Kopfzeile keine Mitgliederzeile.",
    it: "Il file non ha nessuna riga di socio sotto l'intestazione.",
  },
  IMPORT_MISSING_COLUMN: {
    fr: "Colonne introuvable : {field} (en-têtes reconnus : {recognised}).",
    en: "Column not found: {field} (recognised headings: {recognised}).",
    de: "Spalte nicht gefunden: {field} (erkannte Überschriften: {recognised}).",
    it: "Colonna non trovata: {field} (intestazioni riconosciute: {recognised}).",
  },
  IMPORT_FOUND_HEADINGS: {
    fr: "En-têtes du fichier : {found}.",
    en: "The file's headings: {found}.",
    de: "Überschriften der Datei: {found}.",
    it: "Intestazioni del file: {found}.",
  },
  IMPORT_NEW_MEMBER_INCOMPLETE: {
    fr: "Aucun membre n'a l'adresse {email} : pour le créer, la ligne doit donner {fields}.",
    en: "No member has the address {email}: to create one, the line needs {fields}.",
    de: "Kein Mitglied hat die Adresse {email}: um es anzulegen, braucht die Zeile {fields}.",
    it: "Nessun membro ha l'indirizzo {email}: per crearlo, la riga deve indicare {fields}.",
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
  IMPORT_UNKNOWN_TIER: {
    fr: "Catégorie inconnue : « {value} » (catégories du club : {tiers}).",
    en: "Unknown tier: “{value}” (the club's tiers: {tiers}).",
    de: "Unbekannte Kategorie: „{value}“ (Kategorien des Vereins: {tiers}).",
    it: "Categoria sconosciuta: «{value}» (categorie del club: {tiers}).",
  },
  IMPORT_NO_TIERS: {
    fr: "Catégorie « {value} » : le club n'a encore aucune catégorie (créez-la d'abord).",
    en: "Tier “{value}”: the club has no tier yet (create it first).",
    de: "Kategorie „{value}“: der Verein hat noch keine Kategorie (zuerst anlegen).",
    it: "Categoria «{value}»: il club non ha ancora nessuna categoria (crearla prima).",
  },
  IMPORT_CONTROL_CHARACTER: {
    fr: "« {field} » contient un caractère de contrôle (saut de ligne, NUL...) ou d'inversion de sens (U+202E...).",
    en: "“{field}” contains a control character (line break, NUL...) or a direction override (U+202E...).",
    de: "„{field}“ enthält ein Steuerzeichen (Zeilenumbruch, NUL...) oder eine Richtungsumkehr (U+202E...).",
    it: "«{field}» contiene un carattere di controllo (a capo, NUL...) o di inversione di direzione (U+202E...).",
  },
  IMPORT_RUNNING: {
    fr: "Un autre import de membres est en cours pour ce club : réessayez quand il sera terminé.",
    en: "Another member import is running for this club: try again once it has finished.",
    de: "Für diesen Verein läuft bereits ein anderer Mitgliederimport: bitte erneut versuchen, sobald er beendet ist.",
    it: "Un'altra importazione di membri è in corso per questo club: riprovare quando sarà terminata.",
  },

  // ---- Joining online ----
  JOIN_CLOSED: {
    fr: "Ce club n'accepte pas de nouveaux membres pour le moment.",
    en: "This club is not taking new members at the moment.",
    de: "Dieser Verein nimmt zurzeit keine neuen Mitglieder auf.",
    it: "Questo club non accetta nuovi membri al momento.",
  },
  ALREADY_MEMBER: {
    fr: "Cette adresse est déjà celle d'un membre : consultez votre boîte mail, nous vous y avons envoyé le lien de votre page de membre.",
    en: "This address is already a member's: check your mailbox, we have sent you the link to your member page.",
    de: "Diese Adresse gehört bereits einem Mitglied: Sehen Sie in Ihrem Postfach nach, wir haben Ihnen den Link zu Ihrer Mitgliederseite geschickt.",
    it: "Questo indirizzo è già di un membro: controllate la vostra casella di posta, vi abbiamo inviato il link alla vostra pagina di membro.",
  },
  NOT_AWAITING_APPROVAL: {
    fr: "Ce membre n'attend pas de décision sur sa demande d'adhésion.",
    en: "This member is not awaiting a decision on an application.",
    de: "Dieses Mitglied wartet nicht auf eine Entscheidung über einen Aufnahmeantrag.",
    it: "Questo membro non è in attesa di una decisione sulla domanda di adesione.",
  },
  TIER_NOT_OFFERED: {
    fr: "Cette formule n'est pas proposée.",
    en: "This tier is not on offer.",
    de: "Diese Stufe wird nicht angeboten.",
    it: "Questo livello non è offerto.",
  },
  REFERRAL_CODE_UNKNOWN: {
    fr: "Ce code de parrainage n'est celui d'aucun membre actif.",
    en: "This referral code is not an active member's.",
    de: "Dieser Empfehlungscode gehört keinem aktiven Mitglied.",
    it: "Questo codice di presentazione non è di alcun membro attivo.",
  },
  CUSTOM_FIELD_UNKNOWN: {
    fr: "Ce champ n'est pas demandé par le club.",
    en: "The club does not ask for this field.",
    de: "Dieses Feld wird vom Verein nicht abgefragt.",
    it: "Il club non chiede questo campo.",
  },
  CUSTOM_FIELD_REQUIRED: {
    fr: "Ce champ est obligatoire.",
    en: "This field is required.",
    de: "Dieses Feld ist erforderlich.",
    it: "Questo campo è obbligatorio.",
  },
  CUSTOM_FIELD_INVALID: {
    fr: "Cette valeur ne convient pas à ce champ.",
    en: "This value does not suit this field.",
    de: "Dieser Wert passt nicht zu diesem Feld.",
    it: "Questo valore non è adatto a questo campo.",
  },
  SUBSCRIPTION_NOT_OFFERED: {
    fr: "Le club ne propose pas de renouvellement automatique.",
    en: "The club does not offer automatic renewal.",
    de: "Der Verein bietet keine automatische Verlängerung an.",
    it: "Il club non offre il rinnovo automatico.",
  },

  // ---- Public forms against bots ----
  CHALLENGE_REQUIRED: {
    fr: "Le formulaire doit joindre un défi résolu (« challenge » et « nonce », voir GET /api/public/challenge).",
    en: "The form must carry a solved challenge (“challenge” and “nonce”, see GET /api/public/challenge).",
    de: "Das Formular muss eine gelöste Aufgabe mitsenden („challenge“ und „nonce“, siehe GET /api/public/challenge).",
    it: "Il modulo deve includere una sfida risolta («challenge» e «nonce», vedi GET /api/public/challenge).",
  },
  CHALLENGE_INVALID: {
    fr: "Le défi du formulaire n'est pas valide ou n'est pas résolu : demandez-en un nouveau.",
    en: "The form's challenge is not valid or not solved: ask for a new one.",
    de: "Die Aufgabe des Formulars ist ungültig oder nicht gelöst: fordern Sie eine neue an.",
    it: "La sfida del modulo non è valida o non è risolta: richiedetene una nuova.",
  },
  CHALLENGE_EXPIRED: {
    fr: "Le défi du formulaire a expiré : demandez-en un nouveau.",
    en: "The form's challenge has expired: ask for a new one.",
    de: "Die Aufgabe des Formulars ist abgelaufen: fordern Sie eine neue an.",
    it: "La sfida del modulo è scaduta: richiedetene una nuova.",
  },
  CHALLENGE_USED: {
    fr: "Ce défi a déjà servi : demandez-en un nouveau pour chaque envoi.",
    en: "This challenge has already been used: ask for a new one for each submission.",
    de: "Diese Aufgabe wurde bereits verwendet: fordern Sie für jedes Absenden eine neue an.",
    it: "Questa sfida è già stata usata: richiedetene una nuova per ogni invio.",
  },
  HONEYPOT_FILLED: {
    fr: "Le formulaire a été refusé : le champ caché « website » doit rester vide.",
    en: "The form was refused: the hidden field “website” must stay empty.",
    de: "Das Formular wurde abgelehnt: das versteckte Feld „website“ muss leer bleiben.",
    it: "Il modulo è stato rifiutato: il campo nascosto «website» deve restare vuoto.",
  },
  FORM_SENT_TOO_FAST: {
    fr: "Le formulaire est parti trop vite : vérifiez vos réponses et envoyez-le à nouveau.",
    en: "The form was sent too quickly: check your answers and send it again.",
    de: "Das Formular wurde zu schnell gesendet: Prüfen Sie Ihre Angaben und senden Sie es erneut.",
    it: "Il modulo è stato inviato troppo in fretta: controllate le risposte e inviatelo di nuovo.",
  },

  // ---- The member's own page (DESIGN.md section 14) ----
  MEMBER_PAGE_NOT_FOUND: {
    fr: "Cette page de membre n'existe pas (le lien a peut-être changé : utilisez le dernier reçu par e-mail).",
    en: "This member page does not exist (the link may have changed: use the latest one you received by email).",
    de: "Diese Mitgliederseite gibt es nicht (der Link hat sich vielleicht geändert: verwenden Sie den zuletzt per E-Mail erhaltenen).",
    it: "Questa pagina di socio non esiste (il link potrebbe essere cambiato: usa l'ultimo ricevuto per e-mail).",
  },
  EMAIL_CHANGE_NOT_PENDING: {
    fr: "Aucun changement d'adresse n'est en attente (il a peut-être déjà été confirmé).",
    en: "No change of address is waiting (it may have been confirmed already).",
    de: "Es wartet keine Adressänderung (sie wurde vielleicht schon bestätigt).",
    it: "Nessun cambio di indirizzo è in attesa (potrebbe essere già stato confermato).",
  },
  EMAIL_CHANGE_EXPIRED: {
    fr: "Ce lien de confirmation a expiré : demandez à nouveau le changement d'adresse.",
    en: "This confirmation link has expired: ask for the change of address again.",
    de: "Dieser Bestätigungslink ist abgelaufen: fordern Sie die Adressänderung erneut an.",
    it: "Questo link di conferma è scaduto: richiedi di nuovo il cambio di indirizzo.",
  },
  EMAIL_CODE_INVALID: {
    fr: "Ce code de confirmation n'est pas le bon.",
    en: "This confirmation code is not the right one.",
    de: "Dieser Bestätigungscode ist nicht korrekt.",
    it: "Questo codice di conferma non è corretto.",
  },
  EMAIL_UNCHANGED: {
    fr: "C'est déjà votre adresse.",
    en: "This is already your address.",
    de: "Das ist bereits Ihre Adresse.",
    it: "È già il tuo indirizzo.",
  },
  NO_SUBSCRIPTION: {
    fr: "Votre adhésion ne se renouvelle pas automatiquement : il n'y a rien à activer ou désactiver.",
    en: "Your membership does not renew automatically: there is nothing to turn on or off.",
    de: "Ihre Mitgliedschaft verlängert sich nicht automatisch: es gibt nichts ein- oder auszuschalten.",
    it: "La tua adesione non si rinnova automaticamente: non c'è nulla da attivare o disattivare.",
  },
  RENEWAL_NOT_DUE: {
    fr: "Rien à payer, et le renouvellement n'est pas encore ouvert : il le sera dès le {date}.",
    en: "Nothing to pay, and the renewal is not open yet: it opens on {date}.",
    de: "Nichts zu bezahlen, und die Verlängerung ist noch nicht offen: ab dem {date}.",
    it: "Nulla da pagare, e il rinnovo non è ancora aperto: lo sarà dal {date}.",
  },
  PAYMENT_METHOD_UNAVAILABLE: {
    fr: "Ce moyen de paiement n'est pas proposé par le club.",
    en: "The club does not offer this payment method.",
    de: "Der Verein bietet diese Zahlungsart nicht an.",
    it: "Il club non offre questo metodo di pagamento.",
  },
  MEMBER_SUSPENDED_SELF: {
    fr: "Votre adhésion est suspendue : contactez le club.",
    en: "Your membership is suspended: please contact the club.",
    de: "Ihre Mitgliedschaft ist gesperrt: bitte wenden Sie sich an den Verein.",
    it: "La tua adesione è sospesa: contatta il club.",
  },

  // ---- Cards, wallets and attendance ----
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

  // ---- Events and tickets ----
  EVENT_NOT_FOUND: {
    fr: "Événement introuvable.",
    en: "Event not found.",
    de: "Veranstaltung nicht gefunden.",
    it: "Evento non trovato.",
  },
  EVENT_NOT_IN_CLUB: {
    fr: "« {id} » n'est pas un événement de ce club.",
    en: "“{id}” is not an event of this club.",
    de: "„{id}“ ist keine Veranstaltung dieses Vereins.",
    it: "«{id}» non è un evento di questo club.",
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
  DATE_OUT_OF_RANGE: {
    fr: "« {field} » doit tomber entre l'an 0001 et l'an 9999 (heure UTC).",
    en: "“{field}” must fall between the years 0001 and 9999 (UTC).",
    de: "„{field}“ muss zwischen den Jahren 0001 und 9999 liegen (UTC).",
    it: "«{field}» deve cadere tra l'anno 0001 e l'anno 9999 (UTC).",
  },
  EVENT_HAS_REGISTRATIONS: {
    fr: "Cet événement a des inscriptions : annulez-le plutôt (status « cancelled »), les inscrits seront prévenus.",
    en: "This event has registrations: cancel it instead (status “cancelled”); the registrants will be told.",
    de: "Diese Veranstaltung hat Anmeldungen: sagen Sie sie stattdessen ab (status „cancelled“); die Angemeldeten werden benachrichtigt.",
    it: "Questo evento ha delle iscrizioni: annullatelo invece (status «cancelled»); gli iscritti saranno avvisati.",
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

  // ---- Registrations and check-in ----
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
  EMAIL_ALREADY_REGISTERED: {
    fr: "Cette adresse e-mail a déjà le nombre maximal d'inscriptions pour cet événement ({max}). Pour modifier une inscription, répondez au message reçu.",
    en: "This email address already has the most registrations allowed for this event ({max}). To change a registration, reply to the message you received.",
    de: "Diese E-Mail-Adresse hat für diese Veranstaltung bereits die höchstzulässige Zahl an Anmeldungen ({max}). Um eine Anmeldung zu ändern, antworten Sie auf die erhaltene Nachricht.",
    it: "Questo indirizzo e-mail ha già il numero massimo di iscrizioni per questo evento ({max}). Per modificare un'iscrizione, rispondete al messaggio ricevuto.",
  },
  REGISTRATION_WITHOUT_MEMBER: {
    fr: "Cette inscription n'est pas celle d'un membre : une facture s'adresse à un membre.",
    en: "This registration is not a member's: an invoice is addressed to a member.",
    de: "Diese Anmeldung ist nicht die eines Mitglieds: eine Rechnung richtet sich an ein Mitglied.",
    it: "Questa iscrizione non è di un socio: una fattura si rivolge a un socio.",
  },
  REGISTRATION_NOT_FOUND: {
    fr: "Inscription introuvable.",
    en: "Registration not found.",
    de: "Anmeldung nicht gefunden.",
    it: "Iscrizione non trovata.",
  },
  REGISTRATION_NOT_PENDING: {
    fr: "Seule une inscription en attente de paiement peut être confirmée (celle-ci est « {status} »).",
    en: "Only a registration awaiting payment can be confirmed (this one is “{status}”).",
    de: "Nur eine Anmeldung, die auf Zahlung wartet, kann bestätigt werden (diese ist „{status}“).",
    it: "Solo un'iscrizione in attesa di pagamento può essere confermata (questa è «{status}»).",
  },
  REGISTRATION_CHECKED_IN: {
    fr: "Cette personne est déjà entrée : son inscription ne peut plus être annulée.",
    en: "This person has already checked in: the registration can no longer be cancelled.",
    de: "Diese Person ist bereits eingecheckt: die Anmeldung kann nicht mehr storniert werden.",
    it: "Questa persona è già entrata: l'iscrizione non può più essere annullata.",
  },
  REGISTRATION_ALREADY_CANCELLED: {
    fr: "Cette inscription est déjà annulée.",
    en: "This registration is already cancelled.",
    de: "Diese Anmeldung ist bereits storniert.",
    it: "Questa iscrizione è già annullata.",
  },
  REFUND_EXCEEDS_PAID: {
    fr: "Le remboursement ({refund}) dépasse ce qui a été payé pour cette inscription ({paid}).",
    en: "The refund ({refund}) is more than was paid for this registration ({paid}).",
    de: "Die Rückerstattung ({refund}) übersteigt den für diese Anmeldung bezahlten Betrag ({paid}).",
    it: "Il rimborso ({refund}) supera quanto pagato per questa iscrizione ({paid}).",
  },

  // ---- Promo codes ----
  PROMO_CODE_NOT_FOUND: {
    fr: "Code promo introuvable.",
    en: "Promo code not found.",
    de: "Aktionscode nicht gefunden.",
    it: "Codice promozionale non trovato.",
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
  PROMO_TIERS_MEMBERSHIP_ONLY: {
    fr: "« applies_to_tier_ids » vaut pour un code d'adhésion (scope membership), pas pour un code d'événement.",
    en: "“applies_to_tier_ids” is for a membership code (scope membership), not an event code.",
    de: "„applies_to_tier_ids“ gilt für einen Mitgliedschaftscode (scope membership), nicht für einen Veranstaltungscode.",
    it: "«applies_to_tier_ids» vale per un codice di adesione (scope membership), non per un codice evento.",
  },
  PROMO_CODE_USED: {
    fr: "Ce code a déjà servi {count} fois : son code, son type et sa valeur de remise ne changent plus (désactivez-le et créez-en un autre).",
    en: "This code has been used {count} times: its code, discount type and value can no longer change (deactivate it and create another).",
    de: "Dieser Code wurde bereits {count}-mal verwendet: Code, Rabattart und -wert lassen sich nicht mehr ändern (deaktivieren Sie ihn und legen Sie einen neuen an).",
    it: "Questo codice è già stato usato {count} volte: codice, tipo e valore dello sconto non possono più cambiare (disattivatelo e createne un altro).",
  },
  PROMO_MAX_USES_BELOW_USED: {
    fr: "« max_uses » ne peut pas descendre sous le nombre d'utilisations déjà faites ({count}).",
    en: "“max_uses” cannot go below the uses already made ({count}).",
    de: "„max_uses“ darf nicht unter die bereits erfolgten Verwendungen ({count}) sinken.",
    it: "«max_uses» non può scendere sotto gli utilizzi già fatti ({count}).",
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

  // ---- Card payments (Stripe) ----
  PAYMENT_PROVIDER_FAILED: {
    fr: "Le prestataire de paiement n'a pas répondu comme prévu : {reason}",
    en: "The payment provider did not answer as expected: {reason}",
    de: "Der Zahlungsanbieter hat nicht wie erwartet geantwortet: {reason}",
    it: "Il fornitore di pagamento non ha risposto come previsto: {reason}",
  },
  STRIPE_SIGNATURE_INVALID: {
    fr: "La signature Stripe de cet événement manque, est fausse ou trop ancienne.",
    en: "This event's Stripe signature is missing, wrong or too old.",
    de: "Die Stripe-Signatur dieses Ereignisses fehlt, ist falsch oder zu alt.",
    it: "La firma Stripe di questo evento manca, è errata o troppo vecchia.",
  },
  STRIPE_EVENT_MALFORMED: {
    fr: "Cet événement signé n'a pas la forme d'un événement Stripe.",
    en: "This signed event does not have the shape of a Stripe event.",
    de: "Dieses signierte Ereignis hat nicht die Form eines Stripe-Ereignisses.",
    it: "Questo evento firmato non ha la forma di un evento Stripe.",
  },
  STRIPE_NOT_CONFIGURED: {
    fr: "Les paiements par carte (Stripe) ne sont pas configurés sur ce serveur.",
    en: "Card payments (Stripe) are not configured on this server.",
    de: "Kartenzahlungen (Stripe) sind auf diesem Server nicht eingerichtet.",
    it: "I pagamenti con carta (Stripe) non sono configurati su questo server.",
  },
  STRIPE_KEYS_MISSING: {
    fr: "Cette action passe par Stripe, mais ce serveur n'a plus les clés de Stripe : l'administrateur du serveur doit les remettre.",
    en: "This goes through Stripe, but this server no longer has Stripe's keys: the server's administrator must set them again.",
    de: "Dies läuft über Stripe, aber dieser Server hat die Schlüssel von Stripe nicht mehr: die Serververwaltung muss sie wieder eintragen.",
    it: "Questa operazione passa da Stripe, ma questo server non ha più le chiavi di Stripe: l'amministratore del server deve reinserirle.",
  },

  // ---- Bank statements ----
  STATEMENT_UNREADABLE: {
    fr: "Le relevé n'est ni un CSV lisible ni un fichier camt.053 ou camt.054 : {problem}",
    en: "The statement is neither a readable CSV nor a camt.053 or camt.054 file: {problem}",
    de: "Der Kontoauszug ist weder ein lesbares CSV noch eine camt.053- oder camt.054-Datei: {problem}",
    it: "L'estratto conto non è né un CSV leggibile né un file camt.053 o camt.054: {problem}",
  },
  STATEMENT_COLUMNS_MISSING: {
    fr: "Colonnes introuvables dans le relevé : {columns}.",
    en: "Columns not found in the statement: {columns}.",
    de: "Spalten im Kontoauszug nicht gefunden: {columns}.",
    it: "Colonne non trovate nell'estratto conto: {columns}.",
  },
  STATEMENT_LINE_ALREADY_RECORDED: {
    fr: "Cette ligne du relevé a déjà été enregistrée.",
    en: "This statement line has already been recorded.",
    de: "Diese Zeile des Kontoauszugs wurde bereits verbucht.",
    it: "Questa riga dell'estratto conto è già stata registrata.",
  },
  PAYOUT_NOT_RECORDED: {
    fr: "Un versement de Stripe sans son numéro (po_…) et qu'aucun versement enregistré du même montant n'explique : il le sera à l'arrivée de l'avis de Stripe (payout.paid), importez alors le relevé à nouveau.",
    en: "A Stripe payout without its id (po_…) that no recorded payout of the same amount explains: it will be once Stripe's notice (payout.paid) arrives; import the statement again then.",
    de: "Eine Stripe-Auszahlung ohne ihre Nummer (po_…), die keine erfasste Auszahlung gleichen Betrags erklärt: sie wird erfasst, sobald Stripes Meldung (payout.paid) eintrifft; dann den Auszug erneut importieren.",
    it: "Un versamento di Stripe senza il suo numero (po_…) che nessun versamento registrato dello stesso importo spiega: lo sarà all'arrivo dell'avviso di Stripe (payout.paid); importare allora di nuovo l'estratto.",
  },
  LINE_NOT_CREDIT: {
    fr: "Un débit, pas un paiement reçu.",
    en: "A debit, not a payment received.",
    de: "Eine Belastung, keine erhaltene Zahlung.",
    it: "Un addebito, non un pagamento ricevuto.",
  },
  LINE_UNREADABLE: {
    fr: "Ligne illisible : {problem}.",
    en: "Unreadable line: {problem}.",
    de: "Unlesbare Zeile: {problem}.",
    it: "Riga illeggibile: {problem}.",
  },
  REFERENCE_MISSING: {
    fr: "Aucune référence sur cette ligne.",
    en: "No reference on this line.",
    de: "Keine Referenz auf dieser Zeile.",
    it: "Nessun riferimento su questa riga.",
  },
  REFERENCE_INVALID: {
    fr: "Ce n'est pas une référence RF valable (chiffres de contrôle faux).",
    en: "Not a valid RF creditor reference (wrong check digits).",
    de: "Keine gültige RF-Referenz (falsche Prüfziffern).",
    it: "Non è un riferimento RF valido (cifre di controllo errate).",
  },
  REFERENCE_UNKNOWN: {
    fr: "Cette référence n'est celle d'aucun membre ni d'aucune inscription du club.",
    en: "This reference is no member's or registration's of the club.",
    de: "Diese Referenz gehört zu keinem Mitglied und keiner Anmeldung des Vereins.",
    it: "Questo riferimento non è di alcun membro né di alcuna iscrizione del club.",
  },
  AMOUNT_DIFFERS: {
    fr: "Le montant diffère de celui attendu ({expected}).",
    en: "The amount differs from the one expected ({expected}).",
    de: "Der Betrag weicht vom erwarteten ab ({expected}).",
    it: "L'importo differisce da quello atteso ({expected}).",
  },
  CURRENCY_DIFFERS: {
    fr: "La devise diffère de celle attendue ({expected}).",
    en: "The currency differs from the one expected ({expected}).",
    de: "Die Währung weicht von der erwarteten ab ({expected}).",
    it: "La valuta differisce da quella attesa ({expected}).",
  },
  ALREADY_PAID: {
    fr: "Déjà payé : un paiement est enregistré à cette date ou après.",
    en: "Already paid: a payment is recorded on or after this date.",
    de: "Bereits bezahlt: eine Zahlung ist an oder nach diesem Datum verbucht.",
    it: "Già pagato: un pagamento è registrato in questa data o dopo.",
  },
  NOT_PAYABLE: {
    fr: "Rien à payer ici pour l'instant ({state}).",
    en: "Nothing to pay here for now ({state}).",
    de: "Hier ist derzeit nichts zu bezahlen ({state}).",
    it: "Niente da pagare qui per ora ({state}).",
  },

  // ---- Invoices ----
  INVOICE_NOT_FOUND: { fr: "Facture introuvable.", en: "Invoice not found.", de: "Rechnung nicht gefunden.", it: "Fattura non trovata." },
  INVOICE_PAID: {
    fr: "La facture {number} a reçu un paiement : remboursez-le avant de l'annuler.",
    en: "Invoice {number} has a payment: refund it before cancelling.",
    de: "Auf Rechnung {number} ist eine Zahlung eingegangen: vor dem Stornieren zurückerstatten.",
    it: "La fattura {number} ha ricevuto un pagamento: rimborsarlo prima di annullarla.",
  },
  INVOICE_CANCELLED: {
    fr: "La facture {number} est annulée : il n'y a rien à envoyer.",
    en: "Invoice {number} is cancelled: there is nothing to send.",
    de: "Rechnung {number} ist storniert: es gibt nichts zu senden.",
    it: "La fattura {number} è annullata: non c'è nulla da inviare.",
  },
  INVOICE_NO_RECIPIENT: {
    fr: "Le membre de la facture {number} n'existe plus : à qui l'envoyer ?",
    en: "The member of invoice {number} no longer exists: there is no one to send it to.",
    de: "Das Mitglied der Rechnung {number} existiert nicht mehr: es gibt niemanden, an den sie gehen kann.",
    it: "Il membro della fattura {number} non esiste più: non c'è nessuno a cui inviarla.",
  },
  INVOICE_MAIL_FAILED: {
    fr: "Le serveur de messagerie a refusé la facture : {reason}",
    en: "The mail server refused the invoice: {reason}",
    de: "Der Mailserver hat die Rechnung abgelehnt: {reason}",
    it: "Il server di posta ha rifiutato la fattura: {reason}",
  },
  INVOICE_REGISTRATION_KIND: {
    fr: "Une facture d'inscription est de type « event », sans catégorie de membre.",
    en: "A registration's invoice is of kind “event”, with no tier.",
    de: "Eine Rechnung für eine Anmeldung ist vom Typ „event“, ohne Kategorie.",
    it: "Una fattura d'iscrizione è di tipo «event», senza categoria.",
  },
  INVOICE_NO_LINE: {
    fr: "Une facture a au moins une ligne (ou tier_id).",
    en: "An invoice has at least one line (or tier_id).",
    de: "Eine Rechnung hat mindestens eine Zeile (oder tier_id).",
    it: "Una fattura ha almeno una riga (o tier_id).",
  },
  INVOICE_TOTAL_NOT_POSITIVE: {
    fr: "Le total de la facture doit être supérieur à zéro.",
    en: "The invoice's total must be above zero.",
    de: "Der Rechnungsbetrag muss grösser als null sein.",
    it: "Il totale della fattura deve essere maggiore di zero.",
  },

  // ---- The books ----
  PERIOD_REVERSED: {
    fr: "La date de début est après la date de fin.",
    en: "The start date is after the end date.",
    de: "Das Anfangsdatum liegt nach dem Enddatum.",
    it: "La data di inizio è successiva alla data di fine.",
  },
  PERIOD_TOO_LONG: {
    fr: "La période dépasse {max} ans.",
    en: "The period is longer than {max} years.",
    de: "Der Zeitraum ist länger als {max} Jahre.",
    it: "Il periodo supera {max} anni.",
  },
  DATEV_PERIOD_SPANS_YEARS: {
    fr: "Un export DATEV couvre une seule année civile (ses dates n'ont pas d'année).",
    en: "A DATEV export covers one calendar year (its dates carry no year).",
    de: "Ein DATEV-Export umfasst ein Kalenderjahr (seine Belegdaten haben kein Jahr).",
    it: "Un export DATEV copre un solo anno civile (le sue date non hanno l'anno).",
  },
  INVALID_ACCOUNT_NUMBER: {
    fr: "Numéro de compte de 1 à 10 chiffres attendu.",
    en: "Expected an account number of 1 to 10 digits.",
    de: "Kontonummer mit 1 bis 10 Ziffern erwartet.",
    it: "Atteso un numero di conto da 1 a 10 cifre.",
  },

  // ---- Webhooks ----
  WEBHOOK_NOT_FOUND: { fr: "Webhook introuvable.", en: "Webhook not found.", de: "Webhook nicht gefunden.", it: "Webhook non trovato." },
  WEBHOOK_DELIVERY_NOT_FOUND: {
    fr: "Envoi de webhook introuvable.",
    en: "Webhook delivery not found.",
    de: "Webhook-Zustellung nicht gefunden.",
    it: "Invio del webhook non trovato.",
  },
  WEBHOOK_URL_INVALID: {
    fr: "L'adresse n'est pas une URL valide.",
    en: "The address is not a valid URL.",
    de: "Die Adresse ist keine gültige URL.",
    it: "L'indirizzo non è un URL valido.",
  },
  WEBHOOK_URL_NOT_ALLOWED: {
    fr: "Cette adresse ne peut pas recevoir de webhooks : {reason}. Seules les adresses http(s) publiques sont permises.",
    en: "This address cannot receive webhooks: {reason}. Only public http(s) addresses are allowed.",
    de: "Diese Adresse kann keine Webhooks empfangen: {reason}. Nur öffentliche http(s)-Adressen sind erlaubt.",
    it: "Questo indirizzo non può ricevere webhook: {reason}. Sono ammessi solo indirizzi http(s) pubblici.",
  },
  WEBHOOK_URL_PRIVATE: {
    fr: "Cette adresse ne peut pas recevoir de webhooks : {reason}. Les adresses locales et privées (un récepteur sur cette machine ou sur votre réseau) sont refusées, sauf si le serveur est lancé avec WEBHOOK_ALLOW_PRIVATE=true.",
    en: "This address cannot receive webhooks: {reason}. Loopback and private addresses (a receiver on this machine or on your own network) are refused unless the server is started with WEBHOOK_ALLOW_PRIVATE=true.",
    de: "Diese Adresse kann keine Webhooks empfangen: {reason}. Lokale und private Adressen (ein Empfänger auf diesem Rechner oder in Ihrem Netz) werden abgelehnt, außer der Server wird mit WEBHOOK_ALLOW_PRIVATE=true gestartet.",
    it: "Questo indirizzo non può ricevere webhook: {reason}. Gli indirizzi locali e privati (un ricevitore su questa macchina o sulla vostra rete) sono rifiutati, a meno che il server non sia avviato con WEBHOOK_ALLOW_PRIVATE=true.",
  },
  WEBHOOK_DISABLED: {
    fr: "Ce webhook est désactivé : réactivez-le d'abord (PATCH enabled=true).",
    en: "This webhook is disabled: enable it first (PATCH enabled=true).",
    de: "Dieser Webhook ist deaktiviert: aktivieren Sie ihn zuerst (PATCH enabled=true).",
    it: "Questo webhook è disattivato: riattivatelo prima (PATCH enabled=true).",
  },

  // ---- The command line (scripts/cli.ts) ----
  BACKUP_TARGET_EXISTS: {
    fr: "Le fichier {path} existe déjà : choisissez un autre nom pour la sauvegarde.",
    en: "The file {path} already exists: choose another name for the backup.",
    de: "Die Datei {path} existiert bereits: wählen Sie einen anderen Namen für die Sicherung.",
    it: "Il file {path} esiste già: scegliete un altro nome per il backup.",
  },

  // ---- Mailings ----
  MAILING_NOT_FOUND: { fr: "Envoi introuvable.", en: "Mailing not found.", de: "Versand nicht gefunden.", it: "Invio non trovato." },
  MAILING_NOT_DRAFT: {
    fr: "L'envoi est à l'état « {status} » : seul un brouillon se modifie.",
    en: "The mailing is {status}: only a draft can be changed.",
    de: "Der Versand ist im Status „{status}“: nur ein Entwurf kann geändert werden.",
    it: "L'invio è nello stato «{status}»: solo una bozza si può modificare.",
  },
  MAILING_NOT_SENDABLE: {
    fr: "L'envoi est à l'état « {status} » : il ne peut pas être envoyé (encore).",
    en: "The mailing is {status}: it cannot be sent (again).",
    de: "Der Versand ist im Status „{status}“: er kann nicht (nochmals) gesendet werden.",
    it: "L'invio è nello stato «{status}»: non può essere spedito (di nuovo).",
  },
  MAILING_NOT_CANCELLABLE: {
    fr: "L'envoi est à l'état « {status} » : seul un brouillon ou un envoi programmé s'annule.",
    en: "The mailing is {status}: only a draft or a scheduled mailing can be cancelled.",
    de: "Der Versand ist im Status „{status}“: nur ein Entwurf oder ein geplanter Versand kann abgebrochen werden.",
    it: "L'invio è nello stato «{status}»: solo una bozza o un invio programmato si può annullare.",
  },
  MAILING_SEND_AT_PASSED: {
    fr: "Cette heure est passée ({time}) : choisissez une heure à venir, ou envoyez maintenant.",
    en: "This time has passed ({time}): choose a later one, or send now.",
    de: "Dieser Zeitpunkt ist vorbei ({time}): wählen Sie einen späteren oder senden Sie jetzt.",
    it: "Quest'ora è passata ({time}): sceglietene una futura, o inviate ora.",
  },
  MAILING_MERGE_FIELD_UNKNOWN: {
    fr: "Champ de fusion inconnu : « {field} » (connus : {fields}).",
    en: "Unknown merge field: “{field}” (known: {fields}).",
    de: "Unbekanntes Seriendruckfeld: „{field}“ (bekannt: {fields}).",
    it: "Campo di unione sconosciuto: «{field}» (noti: {fields}).",
  },
  MAILING_TEST_FAILED: {
    fr: "Le serveur de messagerie a refusé l'envoi test : {reason}",
    en: "The mail server refused the test mail: {reason}",
    de: "Der Mailserver hat die Testnachricht abgelehnt: {reason}",
    it: "Il server di posta ha rifiutato l'invio di prova: {reason}",
  },
  UNSUBSCRIBE_LINK_UNKNOWN: {
    fr: "Ce lien de désinscription n'est pas (ou plus) valable.",
    en: "This unsubscribe link is not (or no longer) valid.",
    de: "Dieser Abmeldelink ist nicht (mehr) gültig.",
    it: "Questo link di disiscrizione non è (più) valido.",
  },
} satisfies Record<string, Texts>;

export type MessageCode = keyof typeof MESSAGES;
