// The texts of the admin dashboard's frame (/admin: sign-in, layout, navigation, common words),
// in the four languages a club can choose. Each page keeps its own texts beside these, in
// lib/i18n/dashboard-<page>.ts, so that pages added later touch no shared text file.
import type { Locale } from "./messages";

/** The navigation's entries, one per page (a page lists itself only once it exists). */
export const NAV_IDS = [
  "overview",
  "members",
  "tiers",
  "promo",
  "events",
  "door",
  "finances",
  "invoices",
  "mailings",
  "settings",
  "keys",
  "webhooks",
  "audit",
] as const;
export type NavId = (typeof NAV_IDS)[number];

export type DashboardTexts = {
  product: string;
  skip: string;
  menu: string;
  nav: Record<NavId, string>;
  signIn: string;
  signInTitle: string;
  /** The page of a one-time sign-in link (lib/auth/sign-in-links): choose a password, then in. */
  welcome: { title: string; text: string; newPassword: string; confirm: string; hint: string; submit: string; expires: string };
  email: string;
  password: string;
  signOut: string;
  signedInAs: string;
  readOnly: string;
  notFoundTitle: string;
  notFoundText: string;
  errorTitle: string;
  back: string;
  save: string;
  cancel: string;
  search: string;
  previous: string;
  next: string;
  pageOf: string;
  saved: string;
  none: string;
};

export const DASHBOARD_TEXTS: Record<Locale, DashboardTexts> = {
  fr: {
    product: "Tableau de bord",
    skip: "Aller au contenu",
    menu: "Menu",
    nav: {
      overview: "Vue d'ensemble",
      members: "Membres",
      tiers: "Catégories",
      promo: "Codes promo",
      events: "Événements",
      door: "Entrée",
      finances: "Finances",
      invoices: "Factures",
      mailings: "Envois",
      settings: "Réglages",
      keys: "Clés d'API",
      webhooks: "Webhooks",
      audit: "Journal",
    },
    signIn: "Se connecter",
    signInTitle: "Connexion au tableau de bord",
    welcome: {
      title: "Choisir votre mot de passe",
      text: "Vous vous connectez en tant que {email}. Choisissez un mot de passe : c'est avec lui, et votre adresse e-mail, que vous reviendrez ensuite.",
      newPassword: "Nouveau mot de passe",
      confirm: "Le même, une seconde fois",
      hint: "Au moins {min} caractères ; quelques mots faciles à retenir font un bon mot de passe.",
      submit: "Enregistrer et se connecter",
      expires: "Ce lien ne sert qu'une fois et expire le {date}.",
    },
    email: "Adresse e-mail",
    password: "Mot de passe",
    signOut: "Se déconnecter",
    signedInAs: "Connecté·e en tant que {email}",
    readOnly: "Lecture seule",
    notFoundTitle: "Page introuvable",
    notFoundText: "Cette page n'existe pas ou plus.",
    errorTitle: "Action refusée",
    back: "Retour",
    save: "Enregistrer",
    cancel: "Annuler",
    search: "Rechercher",
    previous: "Précédent",
    next: "Suivant",
    pageOf: "Page {page} sur {pages}",
    saved: "Enregistré.",
    none: "Aucun",
  },
  en: {
    product: "Dashboard",
    skip: "Skip to content",
    menu: "Menu",
    nav: {
      overview: "Overview",
      members: "Members",
      tiers: "Tiers",
      promo: "Promo codes",
      events: "Events",
      door: "Door",
      finances: "Finances",
      invoices: "Invoices",
      mailings: "Mailings",
      settings: "Settings",
      keys: "API keys",
      webhooks: "Webhooks",
      audit: "Audit log",
    },
    signIn: "Sign in",
    signInTitle: "Sign in to the dashboard",
    welcome: {
      title: "Choose your password",
      text: "You are signing in as {email}. Choose a password: with it and your email address you will sign in from now on.",
      newPassword: "New password",
      confirm: "The same password again",
      hint: "At least {min} characters; a few words you remember make a good password.",
      submit: "Save and sign in",
      expires: "This link works once and expires on {date}.",
    },
    email: "Email address",
    password: "Password",
    signOut: "Sign out",
    signedInAs: "Signed in as {email}",
    readOnly: "Read-only",
    notFoundTitle: "Page not found",
    notFoundText: "This page does not exist, or no longer does.",
    errorTitle: "Action refused",
    back: "Back",
    save: "Save",
    cancel: "Cancel",
    search: "Search",
    previous: "Previous",
    next: "Next",
    pageOf: "Page {page} of {pages}",
    saved: "Saved.",
    none: "None",
  },
  de: {
    product: "Dashboard",
    skip: "Zum Inhalt springen",
    menu: "Menü",
    nav: {
      overview: "Übersicht",
      members: "Mitglieder",
      tiers: "Kategorien",
      promo: "Aktionscodes",
      events: "Veranstaltungen",
      door: "Einlass",
      finances: "Finanzen",
      invoices: "Rechnungen",
      mailings: "Rundschreiben",
      settings: "Einstellungen",
      keys: "API-Schlüssel",
      webhooks: "Webhooks",
      audit: "Protokoll",
    },
    signIn: "Anmelden",
    signInTitle: "Beim Dashboard anmelden",
    welcome: {
      title: "Ihr Passwort wählen",
      text: "Sie melden sich als {email} an. Wählen Sie ein Passwort: Damit und mit Ihrer E-Mail-Adresse melden Sie sich künftig an.",
      newPassword: "Neues Passwort",
      confirm: "Dasselbe Passwort noch einmal",
      hint: "Mindestens {min} Zeichen; ein paar Wörter, die Sie sich merken, ergeben ein gutes Passwort.",
      submit: "Speichern und anmelden",
      expires: "Dieser Link gilt einmal und läuft am {date} ab.",
    },
    email: "E-Mail-Adresse",
    password: "Passwort",
    signOut: "Abmelden",
    signedInAs: "Angemeldet als {email}",
    readOnly: "Nur Lesen",
    notFoundTitle: "Seite nicht gefunden",
    notFoundText: "Diese Seite gibt es nicht oder nicht mehr.",
    errorTitle: "Aktion abgelehnt",
    back: "Zurück",
    save: "Speichern",
    cancel: "Abbrechen",
    search: "Suchen",
    previous: "Zurück",
    next: "Weiter",
    pageOf: "Seite {page} von {pages}",
    saved: "Gespeichert.",
    none: "Keine",
  },
  it: {
    product: "Dashboard",
    skip: "Vai al contenuto",
    menu: "Menu",
    nav: {
      overview: "Panoramica",
      members: "Membri",
      tiers: "Categorie",
      promo: "Codici promo",
      events: "Eventi",
      door: "Ingresso",
      finances: "Finanze",
      invoices: "Fatture",
      mailings: "Invii",
      settings: "Impostazioni",
      keys: "Chiavi API",
      webhooks: "Webhook",
      audit: "Registro",
    },
    signIn: "Accedi",
    signInTitle: "Accedi alla dashboard",
    welcome: {
      title: "Scegli la tua password",
      text: "Stai accedendo come {email}. Scegli una password: con essa e il tuo indirizzo e-mail accederai d'ora in poi.",
      newPassword: "Nuova password",
      confirm: "La stessa password di nuovo",
      hint: "Almeno {min} caratteri; alcune parole facili da ricordare fanno una buona password.",
      submit: "Salva e accedi",
      expires: "Questo link vale una sola volta e scade il {date}.",
    },
    email: "Indirizzo e-mail",
    password: "Password",
    signOut: "Esci",
    signedInAs: "Connesso come {email}",
    readOnly: "Sola lettura",
    notFoundTitle: "Pagina non trovata",
    notFoundText: "Questa pagina non esiste, o non esiste più.",
    errorTitle: "Azione rifiutata",
    back: "Indietro",
    save: "Salva",
    cancel: "Annulla",
    search: "Cerca",
    previous: "Precedente",
    next: "Successiva",
    pageOf: "Pagina {page} di {pages}",
    saved: "Salvato.",
    none: "Nessuno",
  },
};

/** `{name}` placeholders filled in (the same rule as the messages'). */
export function fill(text: string, params: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

/**
 * A text whose words follow a number: one form per plural category of the language, as
 * Intl.PluralRules names them (`one`, `many`, `other`...), `other` standing for any category not
 * given. French says "0 membre, 1 membre, 2 membres"; English "0 members, 1 member"; Italian "1
 * membro, 2 membri". The number fills `{n}`.
 */
export type Plural = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

const pluralRules = new Map<Locale, Intl.PluralRules>();

/** The form of `forms` for `n` in `locale`, its placeholders filled (`{n}`: the number). */
export function plural(locale: Locale, forms: Plural, n: number, params: Record<string, string | number> = {}): string {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return fill(forms[rules.select(n)] ?? forms.other, { n, ...params });
}

/** The 7 scope areas of lib/access (named here: i18n sits below access), as the keys page and the OAuth consent name them. */
export type ScopeArea = "members" | "finances" | "events" | "communication" | "access_control" | "page" | "card";

export const SCOPE_AREA_NAMES: Record<Locale, Record<ScopeArea, string>> = {
  fr: {
    members: "Membres",
    finances: "Finances",
    events: "Événements",
    communication: "Communication",
    access_control: "Contrôle d'accès",
    page: "Page du club",
    card: "Carte de membre",
  },
  en: {
    members: "Members",
    finances: "Finances",
    events: "Events",
    communication: "Communication",
    access_control: "Access control",
    page: "Club page",
    card: "Membership card",
  },
  de: {
    members: "Mitglieder",
    finances: "Finanzen",
    events: "Veranstaltungen",
    communication: "Kommunikation",
    access_control: "Zutrittskontrolle",
    page: "Vereinsseite",
    card: "Mitgliedskarte",
  },
  it: {
    members: "Membri",
    finances: "Finanze",
    events: "Eventi",
    communication: "Comunicazione",
    access_control: "Controllo accessi",
    page: "Pagina del club",
    card: "Tessera",
  },
};
