// Texts of the OAuth consent page (/admin/oauth/authorize, DESIGN.md section 17), in the four
// languages a club can choose.
import { SCOPE_AREA_NAMES, type ScopeArea } from "./dashboard";
import type { Locale } from "./messages";

export type OAuthTexts = {
  title: string;
  intro: string;
  redirectsTo: string;
  unverified: string;
  scopesLegend: string;
  scopesHint: string;
  areas: Record<ScopeArea, string>;
  none: string;
  view: string;
  edit: string;
  allow: string;
  deny: string;
  noScope: string;
  refusedTitle: string;
  unknownClient: string;
  foreignRedirect: string;
};

export const OAUTH_TEXTS: Record<Locale, OAuthTexts> = {
  fr: {
    title: "Autoriser un assistant",
    intro: "{client} demande à accéder au club en votre nom, par le serveur MCP.",
    redirectsTo: "Après votre réponse, vous serez renvoyé vers {host}.",
    unverified: "Ce nom est donné par l'application elle-même : n'autorisez que ce que vous venez de connecter.",
    scopesLegend: "Ce que l'assistant pourra faire",
    scopesHint: "Jamais plus que vos propres droits. Vous pourrez révoquer cet accès avec les clés d'API.",
    areas: SCOPE_AREA_NAMES.fr,
    none: "Aucun accès",
    view: "Lecture",
    edit: "Modification",
    allow: "Autoriser",
    deny: "Refuser",
    noScope: "Choisissez au moins un domaine, ou refusez.",
    refusedTitle: "Demande d'autorisation refusée",
    unknownClient: "Cette application est inconnue ou sa description n'a pas pu être lue : {detail}",
    foreignRedirect: "L'adresse de retour {uri} n'est pas une de celles que l'application a déclarées.",
  },
  en: {
    title: "Allow an assistant",
    intro: "{client} asks to access the club on your behalf, through the MCP server.",
    redirectsTo: "After you answer, you will be sent back to {host}.",
    unverified: "The application gives this name itself: allow only what you have just connected.",
    scopesLegend: "What the assistant may do",
    scopesHint: "Never more than your own rights. You can revoke this access with the API keys.",
    areas: SCOPE_AREA_NAMES.en,
    none: "No access",
    view: "View",
    edit: "Edit",
    allow: "Allow",
    deny: "Deny",
    noScope: "Choose at least one area, or deny.",
    refusedTitle: "Authorization request refused",
    unknownClient: "This application is unknown or its description could not be read: {detail}",
    foreignRedirect: "The return address {uri} is not one the application registered.",
  },
  de: {
    title: "Einen Assistenten zulassen",
    intro: "{client} möchte über den MCP-Server in Ihrem Namen auf den Verein zugreifen.",
    redirectsTo: "Nach Ihrer Antwort werden Sie zu {host} weitergeleitet.",
    unverified: "Diesen Namen gibt sich die Anwendung selbst: Erlauben Sie nur, was Sie gerade verbunden haben.",
    scopesLegend: "Was der Assistent tun darf",
    scopesHint: "Nie mehr als Ihre eigenen Rechte. Sie können diesen Zugriff bei den API-Schlüsseln widerrufen.",
    areas: SCOPE_AREA_NAMES.de,
    none: "Kein Zugriff",
    view: "Lesen",
    edit: "Bearbeiten",
    allow: "Zulassen",
    deny: "Ablehnen",
    noScope: "Wählen Sie mindestens einen Bereich oder lehnen Sie ab.",
    refusedTitle: "Autorisierungsanfrage abgelehnt",
    unknownClient: "Diese Anwendung ist unbekannt oder ihre Beschreibung konnte nicht gelesen werden: {detail}",
    foreignRedirect: "Die Rücksprungadresse {uri} gehört nicht zu denen, die die Anwendung angemeldet hat.",
  },
  it: {
    title: "Autorizzare un assistente",
    intro: "{client} chiede di accedere al club a tuo nome, tramite il server MCP.",
    redirectsTo: "Dopo la tua risposta sarai rimandato a {host}.",
    unverified: "Questo nome lo dà l'applicazione stessa: autorizza solo ciò che hai appena collegato.",
    scopesLegend: "Cosa potrà fare l'assistente",
    scopesHint: "Mai più dei tuoi diritti. Potrai revocare questo accesso con le chiavi API.",
    areas: SCOPE_AREA_NAMES.it,
    none: "Nessun accesso",
    view: "Lettura",
    edit: "Modifica",
    allow: "Autorizza",
    deny: "Rifiuta",
    noScope: "Scegli almeno un'area, oppure rifiuta.",
    refusedTitle: "Richiesta di autorizzazione rifiutata",
    unknownClient: "Questa applicazione è sconosciuta o la sua descrizione non ha potuto essere letta: {detail}",
    foreignRedirect: "L'indirizzo di ritorno {uri} non è tra quelli dichiarati dall'applicazione.",
  },
};
