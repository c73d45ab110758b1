// The texts of the dashboard's promo codes page (dashboard/pages/promo-codes.tsx), in the four
// languages. Placeholders: {code}, {used}, {max}, {date}.
import type { Locale } from "./messages";

export type PromoTexts = {
  add: string;
  addTitle: string;
  editTitle: string;
  code: string;
  codeHint: string;
  discount: string;
  type: string;
  types: Record<"percent" | "amount", string>;
  value: string;
  valueHint: string;
  appliesTo: string;
  membership: string;
  event: string;
  tiers: string;
  tiersHint: string;
  uses: string;
  usesOf: string;
  maxUses: string;
  maxHint: string;
  validFrom: string;
  validUntil: string;
  /** Under a date-time field: the zone it is typed in ({zone}). */
  localHint: string;
  validity: string;
  from: string;
  until: string;
  always: string;
  state: string;
  active: string;
  inactive: string;
  edit: string;
  deactivate: string;
  activate: string;
  usedHint: string;
  empty: string;
  done: Record<"created" | "saved" | "deactivated" | "activated", string>;
};

export const PROMO_TEXTS: Record<Locale, PromoTexts> = {
  fr: {
    add: "Ajouter un code",
    addTitle: "Nouveau code promo",
    editTitle: "Modifier le code {code}",
    code: "Code",
    codeHint: "4 à 30 caractères, majuscules et minuscules confondues.",
    discount: "Réduction",
    type: "Type de réduction",
    types: { percent: "Pourcentage", amount: "Montant fixe" },
    value: "Valeur",
    valueHint: "Un pourcentage (1 à 100) ou un montant.",
    appliesTo: "S'applique à",
    membership: "Adhésion",
    event: "Événement",
    tiers: "Catégories concernées",
    tiersHint: "Aucune cochée : toutes les catégories (codes d'adhésion seulement).",
    uses: "Utilisations",
    usesOf: "{used} / {max}",
    maxUses: "Utilisations au plus",
    maxHint: "Vide : sans limite.",
    validFrom: "Valable dès",
    validUntil: "Valable jusqu'au",
    localHint: "Heure locale du club ({zone}). Vide : sans limite.",
    validity: "Validité",
    from: "dès {date}",
    until: "jusqu'au {date}",
    always: "Toujours",
    state: "État",
    active: "Actif",
    inactive: "Désactivé",
    edit: "Modifier",
    deactivate: "Désactiver",
    activate: "Réactiver",
    usedHint: "Ce code a déjà servi : son code et sa réduction ne peuvent plus changer.",
    empty: "Aucun code promo pour l'instant.",
    done: { created: "Code ajouté.", saved: "Code enregistré.", deactivated: "Code désactivé.", activated: "Code réactivé." },
  },
  en: {
    add: "Add a code",
    addTitle: "New promo code",
    editTitle: "Edit code {code}",
    code: "Code",
    codeHint: "4 to 30 characters, upper and lower case alike.",
    discount: "Discount",
    type: "Discount type",
    types: { percent: "Percentage", amount: "Fixed amount" },
    value: "Value",
    valueHint: "A percentage (1 to 100) or an amount.",
    appliesTo: "Applies to",
    membership: "Membership",
    event: "Event",
    tiers: "Tiers it applies to",
    tiersHint: "None ticked: every tier (membership codes only).",
    uses: "Uses",
    usesOf: "{used} / {max}",
    maxUses: "Maximum uses",
    maxHint: "Empty: no limit.",
    validFrom: "Valid from",
    validUntil: "Valid until",
    localHint: "The club's local time ({zone}). Empty: no limit.",
    validity: "Validity",
    from: "from {date}",
    until: "until {date}",
    always: "Always",
    state: "State",
    active: "Active",
    inactive: "Inactive",
    edit: "Edit",
    deactivate: "Deactivate",
    activate: "Reactivate",
    usedHint: "This code has been used: its code and discount can no longer change.",
    empty: "No promo code yet.",
    done: { created: "Code added.", saved: "Code saved.", deactivated: "Code deactivated.", activated: "Code reactivated." },
  },
  de: {
    add: "Code hinzufügen",
    addTitle: "Neuer Aktionscode",
    editTitle: "Code {code} bearbeiten",
    code: "Code",
    codeHint: "4 bis 30 Zeichen, Gross- und Kleinschreibung gleich.",
    discount: "Rabatt",
    type: "Rabattart",
    types: { percent: "Prozent", amount: "Fester Betrag" },
    value: "Wert",
    valueHint: "Ein Prozentsatz (1 bis 100) oder ein Betrag.",
    appliesTo: "Gilt für",
    membership: "Mitgliedschaft",
    event: "Veranstaltung",
    tiers: "Betroffene Kategorien",
    tiersHint: "Keine angekreuzt: alle Kategorien (nur Mitgliedschaftscodes).",
    uses: "Verwendungen",
    usesOf: "{used} / {max}",
    maxUses: "Höchstens verwendbar",
    maxHint: "Leer: ohne Grenze.",
    validFrom: "Gültig ab",
    validUntil: "Gültig bis",
    localHint: "Ortszeit des Vereins ({zone}). Leer: ohne Grenze.",
    validity: "Gültigkeit",
    from: "ab {date}",
    until: "bis {date}",
    always: "Immer",
    state: "Zustand",
    active: "Aktiv",
    inactive: "Deaktiviert",
    edit: "Bearbeiten",
    deactivate: "Deaktivieren",
    activate: "Wieder aktivieren",
    usedHint: "Dieser Code wurde schon verwendet: Code und Rabatt lassen sich nicht mehr ändern.",
    empty: "Noch kein Aktionscode.",
    done: { created: "Code hinzugefügt.", saved: "Code gespeichert.", deactivated: "Code deaktiviert.", activated: "Code wieder aktiviert." },
  },
  it: {
    add: "Aggiungi un codice",
    addTitle: "Nuovo codice promo",
    editTitle: "Modifica il codice {code}",
    code: "Codice",
    codeHint: "Da 4 a 30 caratteri, maiuscole e minuscole equivalenti.",
    discount: "Sconto",
    type: "Tipo di sconto",
    types: { percent: "Percentuale", amount: "Importo fisso" },
    value: "Valore",
    valueHint: "Una percentuale (da 1 a 100) o un importo.",
    appliesTo: "Vale per",
    membership: "Adesione",
    event: "Evento",
    tiers: "Categorie interessate",
    tiersHint: "Nessuna selezionata: tutte le categorie (solo codici di adesione).",
    uses: "Utilizzi",
    usesOf: "{used} / {max}",
    maxUses: "Utilizzi al massimo",
    maxHint: "Vuoto: senza limite.",
    validFrom: "Valido dal",
    validUntil: "Valido fino al",
    localHint: "Ora locale del club ({zone}). Vuoto: senza limite.",
    validity: "Validità",
    from: "dal {date}",
    until: "fino al {date}",
    always: "Sempre",
    state: "Stato",
    active: "Attivo",
    inactive: "Disattivato",
    edit: "Modifica",
    deactivate: "Disattiva",
    activate: "Riattiva",
    usedHint: "Questo codice è già stato usato: codice e sconto non possono più cambiare.",
    empty: "Ancora nessun codice promo.",
    done: { created: "Codice aggiunto.", saved: "Codice salvato.", deactivated: "Codice disattivato.", activated: "Codice riattivato." },
  },
};
