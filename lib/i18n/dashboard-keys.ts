// The texts of the dashboard's API keys page (dashboard/pages/keys.tsx), in the four languages a
// club can choose.
import { SCOPE_AREA_NAMES, type ScopeArea } from "./dashboard";
import type { Locale } from "./messages";

export type KeysTexts = {
  intro: string;
  listTitle: string;
  empty: string;
  name: string;
  kind: Record<"api_key" | "oauth_grant", string>;
  owner: string;
  scopes: string;
  created: string;
  lastUsed: string;
  never: string;
  expires: string;
  state: string;
  active: string;
  revoked: string;
  expired: string;
  revoke: string;
  revokeConfirm: string;
  revokeOf: string;
  revokedDone: string;
  createTitle: string;
  namePlaceholder: string;
  expiresHint: string;
  area: string;
  areas: Record<ScopeArea, string>;
  levels: Record<"none" | "view" | "edit", string>;
  viewOnly: string;
  viewOnlyHint: string;
  readOnlyAdmin: string;
  create: string;
  createdTitle: string;
  createdText: string;
  copy: string;
  copied: string;
};

export const KEYS_TEXTS: Record<Locale, KeysTexts> = {
  fr: {
    intro: "Une clé d'API permet à un outil (tableur, site, assistant IA) d'agir au nom de son admin, dans les limites choisies ici.",
    listTitle: "Clés du club",
    empty: "Aucune clé pour l'instant.",
    name: "Nom",
    kind: { api_key: "Clé d'API", oauth_grant: "Assistant (OAuth)" },
    owner: "Admin",
    scopes: "Droits",
    created: "Créée le",
    lastUsed: "Dernier usage",
    never: "Jamais",
    expires: "Expire le",
    state: "État",
    active: "Active",
    revoked: "Révoquée",
    expired: "Expirée",
    revoke: "Révoquer",
    revokeConfirm: "Révoquer cette clé ? Les outils qui l'utilisent seront refusés aussitôt.",
    revokeOf: "Révoquer la clé {name}",
    revokedDone: "Clé révoquée : elle ne fonctionne plus.",
    createTitle: "Créer une clé",
    namePlaceholder: "Par ex. Synchronisation tableur",
    expiresHint: "Facultatif : après ce jour, la clé ne fonctionne plus.",
    area: "Domaine",
    areas: SCOPE_AREA_NAMES.fr,
    levels: { none: "Aucun", view: "Lecture", edit: "Modification" },
    viewOnly: "Clé en lecture seule",
    viewOnlyHint: "Chaque domaine choisi est limité à la lecture.",
    readOnlyAdmin: "Votre compte est en lecture seule : vos clés ne peuvent que lire.",
    create: "Créer la clé",
    createdTitle: "Votre nouvelle clé",
    createdText: "Copiez-la maintenant : elle ne sera plus jamais affichée. Seule son empreinte est gardée.",
    copy: "Copier la clé",
    copied: "Copiée",
  },
  en: {
    intro: "An API key lets a tool (spreadsheet, website, AI assistant) act on behalf of its admin, within the limits chosen here.",
    listTitle: "The club's keys",
    empty: "No keys yet.",
    name: "Name",
    kind: { api_key: "API key", oauth_grant: "Assistant (OAuth)" },
    owner: "Admin",
    scopes: "Rights",
    created: "Created",
    lastUsed: "Last used",
    never: "Never",
    expires: "Expires",
    state: "State",
    active: "Active",
    revoked: "Revoked",
    expired: "Expired",
    revoke: "Revoke",
    revokeConfirm: "Revoke this key? Tools using it are refused at once.",
    revokeOf: "Revoke the key {name}",
    revokedDone: "Key revoked: it no longer works.",
    createTitle: "Create a key",
    namePlaceholder: "E.g. Spreadsheet sync",
    expiresHint: "Optional: after this day the key stops working.",
    area: "Area",
    areas: SCOPE_AREA_NAMES.en,
    levels: { none: "None", view: "View", edit: "Edit" },
    viewOnly: "View-only key",
    viewOnlyHint: "Every area chosen is limited to viewing.",
    readOnlyAdmin: "Your account is read-only: your keys can only read.",
    create: "Create the key",
    createdTitle: "Your new key",
    createdText: "Copy it now: it will never be shown again. Only its fingerprint is kept.",
    copy: "Copy the key",
    copied: "Copied",
  },
  de: {
    intro: "Ein API-Schlüssel lässt ein Werkzeug (Tabelle, Website, KI-Assistent) im Namen seines Admins handeln, in den hier gewählten Grenzen.",
    listTitle: "Schlüssel des Vereins",
    empty: "Noch keine Schlüssel.",
    name: "Name",
    kind: { api_key: "API-Schlüssel", oauth_grant: "Assistent (OAuth)" },
    owner: "Admin",
    scopes: "Rechte",
    created: "Erstellt",
    lastUsed: "Zuletzt benutzt",
    never: "Nie",
    expires: "Läuft ab",
    state: "Status",
    active: "Aktiv",
    revoked: "Widerrufen",
    expired: "Abgelaufen",
    revoke: "Widerrufen",
    revokeConfirm: "Diesen Schlüssel widerrufen? Werkzeuge, die ihn nutzen, werden sofort abgewiesen.",
    revokeOf: "Schlüssel {name} widerrufen",
    revokedDone: "Schlüssel widerrufen: er funktioniert nicht mehr.",
    createTitle: "Schlüssel erstellen",
    namePlaceholder: "Z. B. Tabellen-Abgleich",
    expiresHint: "Optional: nach diesem Tag funktioniert der Schlüssel nicht mehr.",
    area: "Bereich",
    areas: SCOPE_AREA_NAMES.de,
    levels: { none: "Keine", view: "Lesen", edit: "Bearbeiten" },
    viewOnly: "Nur-Lese-Schlüssel",
    viewOnlyHint: "Jeder gewählte Bereich ist auf Lesen beschränkt.",
    readOnlyAdmin: "Ihr Konto ist schreibgeschützt: Ihre Schlüssel können nur lesen.",
    create: "Schlüssel erstellen",
    createdTitle: "Ihr neuer Schlüssel",
    createdText: "Kopieren Sie ihn jetzt: er wird nie wieder angezeigt. Nur sein Fingerabdruck wird gespeichert.",
    copy: "Schlüssel kopieren",
    copied: "Kopiert",
  },
  it: {
    intro: "Una chiave API permette a uno strumento (foglio di calcolo, sito, assistente IA) di agire a nome del suo admin, nei limiti scelti qui.",
    listTitle: "Chiavi del club",
    empty: "Ancora nessuna chiave.",
    name: "Nome",
    kind: { api_key: "Chiave API", oauth_grant: "Assistente (OAuth)" },
    owner: "Admin",
    scopes: "Diritti",
    created: "Creata il",
    lastUsed: "Ultimo uso",
    never: "Mai",
    expires: "Scade il",
    state: "Stato",
    active: "Attiva",
    revoked: "Revocata",
    expired: "Scaduta",
    revoke: "Revoca",
    revokeConfirm: "Revocare questa chiave? Gli strumenti che la usano saranno rifiutati subito.",
    revokeOf: "Revoca la chiave {name}",
    revokedDone: "Chiave revocata: non funziona più.",
    createTitle: "Crea una chiave",
    namePlaceholder: "Ad es. Sincronizzazione foglio",
    expiresHint: "Facoltativo: dopo questo giorno la chiave non funziona più.",
    area: "Ambito",
    areas: SCOPE_AREA_NAMES.it,
    levels: { none: "Nessuno", view: "Lettura", edit: "Modifica" },
    viewOnly: "Chiave in sola lettura",
    viewOnlyHint: "Ogni ambito scelto è limitato alla lettura.",
    readOnlyAdmin: "Il vostro account è in sola lettura: le vostre chiavi possono solo leggere.",
    create: "Crea la chiave",
    createdTitle: "La vostra nuova chiave",
    createdText: "Copiatela ora: non sarà mai più mostrata. Se ne conserva solo l'impronta.",
    copy: "Copia la chiave",
    copied: "Copiata",
  },
};
