// The texts of the dashboard's door (dashboard/pages/door.tsx and its script,
// dashboard/assets/door.js, which reads the ones it needs from the page), in the four languages.
// Placeholders: {title}, {checked}, {registered}, {n}, {time}. Counted words are Plural forms
// (lib/i18n/dashboard `plural`), which the script chooses too (Intl.PluralRules in the browser).
import { fill, type Plural, plural } from "./dashboard";
import type { Locale } from "./messages";

export type DoorTexts = {
  title: string;
  chooseTitle: string;
  chooseHint: string;
  noEvents: string;
  /** "2 in of 3 registered": the line, and the words of each of its two numbers. */
  counts: { line: string; checked: Plural; registered: Plural };
  ready: string;
  verdict: Record<"valid" | "already" | "not_registered", string>;
  alreadyAt: string;
  code: string;
  codeHint: string;
  checkIn: string;
  startCamera: string;
  stopCamera: string;
  cameraUnavailable: string;
  cameraDenied: string;
  online: string;
  offline: string;
  queued: Plural;
  savedOffline: string;
  savedOfflineDetail: string;
  signedOut: string;
  sentLater: string;
  error: string;
  recent: string;
  backToEvent: string;
};

export const DOOR_TEXTS: Record<Locale, DoorTexts> = {
  fr: {
    title: "Entrée · {title}",
    chooseTitle: "Entrée : choisir l'événement",
    chooseHint: "L'écran d'entrée appartient à un événement : choisissez celui de ce soir.",
    noEvents: "Aucun événement publié à venir.",
    counts: {
      line: "{checked} sur {registered}",
      checked: { one: "{n} entré", other: "{n} entrés" },
      registered: { one: "{n} inscrit", other: "{n} inscrits" },
    },
    ready: "Prêt : scannez un billet ou une carte de membre.",
    verdict: { valid: "Valide", already: "Déjà entré·e", not_registered: "Pas inscrit·e" },
    alreadyAt: "Entré·e à {time}",
    code: "Code du billet ou de la carte",
    codeHint: "Tapez le code si le scan ne passe pas.",
    checkIn: "Valider l'entrée",
    startCamera: "Scanner avec la caméra",
    stopCamera: "Arrêter la caméra",
    cameraUnavailable: "Caméra indisponible sur cette page (il faut https) : tapez le code.",
    cameraDenied: "La caméra est refusée : autorisez-la dans le navigateur, ou tapez le code.",
    online: "En ligne",
    offline: "Hors ligne : les scans sont gardés ici et envoyés dès le retour du réseau.",
    queued: { one: "{n} scan en attente d'envoi", other: "{n} scans en attente d'envoi" },
    savedOffline: "Gardé hors ligne",
    savedOfflineDetail: "Sera vérifié au retour du réseau : contrôlez le billet à l'œil.",
    signedOut: "Session terminée : reconnectez-vous dans un autre onglet, les scans attendent ici.",
    sentLater: "envoyé au retour du réseau",
    error: "Le scan n'a pas pu être vérifié. Rechargez la page.",
    recent: "Derniers scans",
    backToEvent: "Retour à l'événement",
  },
  en: {
    title: "Door · {title}",
    chooseTitle: "Door: choose the event",
    chooseHint: "The door screen belongs to one event: choose tonight's.",
    noEvents: "No upcoming published event.",
    counts: { line: "Checked in: {checked} of {registered}", checked: { other: "{n}" }, registered: { other: "{n} registered" } },
    ready: "Ready: scan a ticket or a member card.",
    verdict: { valid: "Valid", already: "Already checked in", not_registered: "Not registered" },
    alreadyAt: "Checked in at {time}",
    code: "Ticket or card code",
    codeHint: "Type the code when the scan does not work.",
    checkIn: "Check in",
    startCamera: "Scan with the camera",
    stopCamera: "Stop the camera",
    cameraUnavailable: "No camera on this page (it needs https): type the code.",
    cameraDenied: "The camera is blocked: allow it in the browser, or type the code.",
    online: "Online",
    offline: "Offline: scans are kept here and sent as soon as the network is back.",
    queued: { one: "{n} scan waiting to be sent", other: "{n} scans waiting to be sent" },
    savedOffline: "Kept offline",
    savedOfflineDetail: "Will be checked when the network is back: look at the ticket yourself.",
    signedOut: "Signed out: sign in again in another tab; the scans wait here.",
    sentLater: "sent when the network came back",
    error: "The scan could not be checked. Reload the page.",
    recent: "Latest scans",
    backToEvent: "Back to the event",
  },
  de: {
    title: "Einlass · {title}",
    chooseTitle: "Einlass: Veranstaltung wählen",
    chooseHint: "Der Einlass gehört zu einer Veranstaltung: Wählen Sie die heutige.",
    noEvents: "Keine kommende veröffentlichte Veranstaltung.",
    counts: { line: "Eingelassen: {checked} von {registered}", checked: { other: "{n}" }, registered: { other: "{n} Angemeldeten" } },
    ready: "Bereit: Ticket oder Mitgliederkarte scannen.",
    verdict: { valid: "Gültig", already: "Schon eingelassen", not_registered: "Nicht angemeldet" },
    alreadyAt: "Eingelassen um {time}",
    code: "Code des Tickets oder der Karte",
    codeHint: "Code eintippen, wenn der Scan nicht klappt.",
    checkIn: "Einlassen",
    startCamera: "Mit der Kamera scannen",
    stopCamera: "Kamera stoppen",
    cameraUnavailable: "Keine Kamera auf dieser Seite (dafür braucht es https): Code eintippen.",
    cameraDenied: "Die Kamera ist blockiert: im Browser erlauben oder Code eintippen.",
    online: "Online",
    offline: "Offline: Scans werden hier behalten und gesendet, sobald das Netz zurück ist.",
    queued: { one: "{n} Scan wartet auf das Senden", other: "{n} Scans warten auf das Senden" },
    savedOffline: "Offline behalten",
    savedOfflineDetail: "Wird geprüft, sobald das Netz zurück ist: Ticket selbst ansehen.",
    signedOut: "Abgemeldet: in einem anderen Tab neu anmelden, die Scans warten hier.",
    sentLater: "gesendet, als das Netz zurück war",
    error: "Der Scan konnte nicht geprüft werden. Seite neu laden.",
    recent: "Letzte Scans",
    backToEvent: "Zurück zur Veranstaltung",
  },
  it: {
    title: "Ingresso · {title}",
    chooseTitle: "Ingresso: scegli l'evento",
    chooseHint: "La schermata d'ingresso appartiene a un evento: scegli quello di stasera.",
    noEvents: "Nessun evento pubblicato in arrivo.",
    counts: {
      line: "{checked} su {registered}",
      checked: { one: "{n} entrato", other: "{n} entrati" },
      registered: { one: "{n} iscritto", other: "{n} iscritti" },
    },
    ready: "Pronto: scansiona un biglietto o una tessera.",
    verdict: { valid: "Valido", already: "Già entrato", not_registered: "Non iscritto" },
    alreadyAt: "Entrato alle {time}",
    code: "Codice del biglietto o della tessera",
    codeHint: "Digita il codice se la scansione non funziona.",
    checkIn: "Registra l'ingresso",
    startCamera: "Scansiona con la fotocamera",
    stopCamera: "Ferma la fotocamera",
    cameraUnavailable: "Fotocamera non disponibile su questa pagina (serve https): digita il codice.",
    cameraDenied: "La fotocamera è bloccata: consentila nel browser, o digita il codice.",
    online: "Online",
    offline: "Offline: le scansioni restano qui e partono appena torna la rete.",
    queued: { one: "{n} scansione in attesa di invio", other: "{n} scansioni in attesa di invio" },
    savedOffline: "Tenuto offline",
    savedOfflineDetail: "Sarà verificato al ritorno della rete: controlla il biglietto a occhio.",
    signedOut: "Sessione scaduta: accedi di nuovo in un'altra scheda, le scansioni aspettano qui.",
    sentLater: "inviato al ritorno della rete",
    error: "Impossibile verificare la scansione. Ricarica la pagina.",
    recent: "Ultime scansioni",
    backToEvent: "Torna all'evento",
  },
};

/** The door's count line ("1 entré sur 3 inscrits"); dashboard/assets/door.js writes it the same way as scans come in. */
export function doorCounts(locale: Locale, texts: DoorTexts, checked: number, registered: number): string {
  return fill(texts.counts.line, { checked: plural(locale, texts.counts.checked, checked), registered: plural(locale, texts.counts.registered, registered) });
}
