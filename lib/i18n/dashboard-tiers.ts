// The texts of the dashboard's tiers page (dashboard/pages/tiers.tsx), in the four languages.
// Placeholders: {name}, {months}.
import type { Locale } from "./messages";

export type TiersTexts = {
  add: string;
  addTitle: string;
  editTitle: string;
  name: string;
  description: string;
  price: string;
  duration: string;
  months: string;
  durationMonths: string;
  sortOrder: string;
  sortHint: string;
  members: string;
  state: string;
  active: string;
  archived: string;
  edit: string;
  archive: string;
  restore: string;
  archiveHint: string;
  empty: string;
  done: Record<"created" | "saved" | "archived" | "restored", string>;
};

export const TIERS_TEXTS: Record<Locale, TiersTexts> = {
  fr: {
    add: "Ajouter une catégorie",
    addTitle: "Nouvelle catégorie",
    editTitle: "Modifier {name}",
    name: "Nom",
    description: "Description",
    price: "Prix",
    duration: "Durée",
    months: "{months} mois",
    durationMonths: "Durée (mois)",
    sortOrder: "Ordre d'affichage",
    sortHint: "Les plus petits nombres d'abord.",
    members: "Membres",
    state: "État",
    active: "Active",
    archived: "Archivée",
    edit: "Modifier",
    archive: "Archiver",
    restore: "Réactiver",
    archiveHint: "Une catégorie archivée n'est plus proposée ; ses membres la gardent.",
    empty: "Aucune catégorie pour l'instant.",
    done: { created: "Catégorie ajoutée.", saved: "Catégorie enregistrée.", archived: "Catégorie archivée.", restored: "Catégorie réactivée." },
  },
  en: {
    add: "Add a tier",
    addTitle: "New tier",
    editTitle: "Edit {name}",
    name: "Name",
    description: "Description",
    price: "Price",
    duration: "Duration",
    months: "{months} months",
    durationMonths: "Duration (months)",
    sortOrder: "Display order",
    sortHint: "Smaller numbers first.",
    members: "Members",
    state: "State",
    active: "Active",
    archived: "Archived",
    edit: "Edit",
    archive: "Archive",
    restore: "Restore",
    archiveHint: "An archived tier is no longer offered; its members keep it.",
    empty: "No tier yet.",
    done: { created: "Tier added.", saved: "Tier saved.", archived: "Tier archived.", restored: "Tier restored." },
  },
  de: {
    add: "Kategorie hinzufügen",
    addTitle: "Neue Kategorie",
    editTitle: "{name} bearbeiten",
    name: "Name",
    description: "Beschreibung",
    price: "Preis",
    duration: "Dauer",
    months: "{months} Monate",
    durationMonths: "Dauer (Monate)",
    sortOrder: "Reihenfolge",
    sortHint: "Kleinere Zahlen zuerst.",
    members: "Mitglieder",
    state: "Zustand",
    active: "Aktiv",
    archived: "Archiviert",
    edit: "Bearbeiten",
    archive: "Archivieren",
    restore: "Wieder aktivieren",
    archiveHint: "Eine archivierte Kategorie wird nicht mehr angeboten; ihre Mitglieder behalten sie.",
    empty: "Noch keine Kategorie.",
    done: { created: "Kategorie hinzugefügt.", saved: "Kategorie gespeichert.", archived: "Kategorie archiviert.", restored: "Kategorie wieder aktiviert." },
  },
  it: {
    add: "Aggiungi una categoria",
    addTitle: "Nuova categoria",
    editTitle: "Modifica {name}",
    name: "Nome",
    description: "Descrizione",
    price: "Prezzo",
    duration: "Durata",
    months: "{months} mesi",
    durationMonths: "Durata (mesi)",
    sortOrder: "Ordine di visualizzazione",
    sortHint: "Prima i numeri più piccoli.",
    members: "Membri",
    state: "Stato",
    active: "Attiva",
    archived: "Archiviata",
    edit: "Modifica",
    archive: "Archivia",
    restore: "Riattiva",
    archiveHint: "Una categoria archiviata non è più proposta; i suoi membri la mantengono.",
    empty: "Ancora nessuna categoria.",
    done: { created: "Categoria aggiunta.", saved: "Categoria salvata.", archived: "Categoria archiviata.", restored: "Categoria riattivata." },
  },
};
