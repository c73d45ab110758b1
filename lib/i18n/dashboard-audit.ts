// The texts of the dashboard's audit log page (dashboard/pages/audit.tsx), in the four languages a
// club can choose.
import type { Plural } from "./dashboard";
import type { Locale } from "./messages";

export type AuditTexts = {
  intro: string;
  filters: string;
  key: string;
  anyKey: string;
  action: string;
  actionColumn: string;
  actionHint: string;
  via: string;
  anyVia: string;
  vias: Record<"http" | "mcp" | "dashboard", string>;
  requestId: string;
  from: string;
  to: string;
  protocol: string;
  filter: string;
  reset: string;
  /** How many rows the journal found (`{n}`). */
  found: Plural;
  empty: string;
  when: string;
  who: string;
  result: string;
  duration: string;
  withKey: string;
  unknownAdmin: string;
  tool: string;
  /** A setting the request changed: {field}, {old}, {new}. */
  changed: string;
};

export const AUDIT_TEXTS: Record<Locale, AuditTexts> = {
  fr: {
    intro: "Chaque requête faite avec une clé d'API, par un assistant IA (MCP) ou dans ce tableau de bord, la plus récente en premier.",
    filters: "Filtres",
    key: "Clé",
    anyKey: "Toutes",
    action: "Action (début du chemin)",
    actionColumn: "Action",
    actionHint: "Par ex. /api/clubs ou /admin/members.",
    via: "Par",
    anyVia: "Tous",
    vias: { http: "API", mcp: "Assistant IA (MCP)", dashboard: "Tableau de bord" },
    requestId: "Identifiant de requête",
    from: "Du",
    to: "Au",
    protocol: "Inclure les échanges techniques MCP",
    filter: "Filtrer",
    reset: "Tout afficher",
    found: { one: "{n} ligne", other: "{n} lignes" },
    empty: "Aucune ligne ne correspond.",
    when: "Quand",
    who: "Qui",
    result: "Résultat",
    duration: "Durée",
    withKey: "clé {prefix}…",
    unknownAdmin: "Admin supprimé",
    tool: "outil {tool}",
    changed: "{field} : {old} → {new}",
  },
  en: {
    intro: "Every request made with an API key, by an AI assistant (MCP) or in this dashboard, newest first.",
    filters: "Filters",
    key: "Key",
    anyKey: "All",
    action: "Action (path starts with)",
    actionColumn: "Action",
    actionHint: "E.g. /api/clubs or /admin/members.",
    via: "Via",
    anyVia: "All",
    vias: { http: "API", mcp: "AI assistant (MCP)", dashboard: "Dashboard" },
    requestId: "Request ID",
    from: "From",
    to: "To",
    protocol: "Include MCP protocol exchanges",
    filter: "Filter",
    reset: "Show all",
    found: { one: "{n} row", other: "{n} rows" },
    empty: "No row matches.",
    when: "When",
    who: "Who",
    result: "Result",
    duration: "Duration",
    withKey: "key {prefix}…",
    unknownAdmin: "Removed admin",
    tool: "tool {tool}",
    changed: "{field}: {old} → {new}",
  },
  de: {
    intro: "Jede Anfrage mit einem API-Schlüssel, durch einen KI-Assistenten (MCP) oder in diesem Dashboard, die neueste zuerst.",
    filters: "Filter",
    key: "Schlüssel",
    anyKey: "Alle",
    action: "Aktion (Pfad beginnt mit)",
    actionColumn: "Aktion",
    actionHint: "Z. B. /api/clubs oder /admin/members.",
    via: "Über",
    anyVia: "Alle",
    vias: { http: "API", mcp: "KI-Assistent (MCP)", dashboard: "Dashboard" },
    requestId: "Anfrage-ID",
    from: "Von",
    to: "Bis",
    protocol: "Technische MCP-Abläufe einbeziehen",
    filter: "Filtern",
    reset: "Alle anzeigen",
    found: { one: "{n} Zeile", other: "{n} Zeilen" },
    empty: "Keine Zeile passt.",
    when: "Wann",
    who: "Wer",
    result: "Ergebnis",
    duration: "Dauer",
    withKey: "Schlüssel {prefix}…",
    unknownAdmin: "Entfernter Admin",
    tool: "Werkzeug {tool}",
    changed: "{field}: {old} → {new}",
  },
  it: {
    intro: "Ogni richiesta fatta con una chiave API, da un assistente IA (MCP) o in questa dashboard, la più recente per prima.",
    filters: "Filtri",
    key: "Chiave",
    anyKey: "Tutte",
    action: "Azione (inizio del percorso)",
    actionColumn: "Azione",
    actionHint: "Ad es. /api/clubs o /admin/members.",
    via: "Tramite",
    anyVia: "Tutti",
    vias: { http: "API", mcp: "Assistente IA (MCP)", dashboard: "Dashboard" },
    requestId: "ID della richiesta",
    from: "Dal",
    to: "Al",
    protocol: "Includere gli scambi tecnici MCP",
    filter: "Filtra",
    reset: "Mostra tutto",
    found: { one: "{n} riga", other: "{n} righe" },
    empty: "Nessuna riga corrisponde.",
    when: "Quando",
    who: "Chi",
    result: "Esito",
    duration: "Durata",
    withKey: "chiave {prefix}…",
    unknownAdmin: "Admin rimosso",
    tool: "strumento {tool}",
    changed: "{field}: {old} → {new}",
  },
};
