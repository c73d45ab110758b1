// The texts of the dashboard's webhooks pages (dashboard/pages/webhooks.tsx), in the four
// languages a club can choose.
import type { Locale } from "./messages";

export type WebhooksTexts = {
  intro: string;
  listTitle: string;
  empty: string;
  url: string;
  description: string;
  events: string;
  allEvents: string;
  allEventsHint: string;
  state: string;
  details: string;
  enabled: string;
  disabled: string;
  disabledReason: Record<"gone" | "failing" | "manual", string>;
  failingSince: string;
  add: string;
  addTitle: string;
  open: string;
  openOf: string;
  edit: string;
  enable: string;
  disable: string;
  remove: string;
  removeConfirm: string;
  rotate: string;
  rotateConfirm: string;
  rotateHint: string;
  test: string;
  testHint: string;
  secretTitle: string;
  secretText: string;
  rotatedText: string;
  copy: string;
  copied: string;
  deliveries: string;
  noDeliveries: string;
  type: string;
  status: string;
  statuses: Record<"pending" | "succeeded" | "failed", string>;
  attempts: string;
  lastCode: string;
  nextAttempt: string;
  created: string;
  retry: string;
  retryOf: string;
  filterStatus: string;
  all: string;
  show: string;
  done: Record<"created" | "saved" | "enabled" | "disabled" | "deleted" | "tested" | "retried", string>;
};

export const WEBHOOKS_TEXTS: Record<Locale, WebhooksTexts> = {
  fr: {
    intro: "Un webhook prévient un autre service (newsletter, comptabilité, chat) à chaque événement du club, par un POST signé.",
    listTitle: "Points de réception",
    empty: "Aucun webhook pour l'instant.",
    url: "Adresse (URL)",
    description: "Description",
    events: "Événements",
    allEvents: "Tous les événements",
    allEventsHint: "Y compris ceux ajoutés plus tard ; sinon cochez ceux voulus ci-dessous.",
    state: "État",
    details: "Détails",
    enabled: "Actif",
    disabled: "Désactivé",
    disabledReason: { gone: "l'adresse a répondu 410", failing: "en échec depuis 3 jours", manual: "par un admin" },
    failingSince: "En échec depuis le {date}",
    add: "Ajouter le webhook",
    addTitle: "Ajouter un webhook",
    open: "Ouvrir",
    openOf: "Ouvrir le webhook {url}",
    edit: "Modifier",
    enable: "Activer",
    disable: "Désactiver",
    remove: "Supprimer",
    removeConfirm: "Supprimer ce webhook et son journal d'envois ?",
    rotate: "Changer le secret",
    rotateConfirm: "Créer un nouveau secret ? L'ancien signe encore pendant 24 h.",
    rotateHint: "L'ancien secret signe encore pendant 24 h, le temps de mettre à jour le service qui reçoit.",
    test: "Envoyer un test",
    testHint: "Envoie un événement webhook.test ; son résultat apparaît dans les envois.",
    secretTitle: "Secret de signature",
    secretText: "Copiez-le maintenant dans le service qui reçoit : il ne sera plus affiché.",
    rotatedText: "Nouveau secret : copiez-le maintenant. L'ancien signe encore jusqu'au {date}.",
    copy: "Copier le secret",
    copied: "Copié",
    deliveries: "Envois",
    noDeliveries: "Aucun envoi pour l'instant.",
    type: "Événement",
    status: "État",
    statuses: { pending: "En attente", succeeded: "Réussi", failed: "Échoué" },
    attempts: "Essais",
    lastCode: "Dernier code",
    nextAttempt: "Prochain essai",
    created: "Créé le",
    retry: "Renvoyer",
    retryOf: "Renvoyer l'envoi {type} du {date}",
    filterStatus: "État des envois",
    all: "Tous",
    show: "Afficher",
    done: {
      created: "Webhook ajouté.",
      saved: "Webhook modifié.",
      enabled: "Webhook activé.",
      disabled: "Webhook désactivé.",
      deleted: "Webhook supprimé.",
      tested: "Événement de test mis en file d'envoi.",
      retried: "Envoi relancé.",
    },
  },
  en: {
    intro: "A webhook tells another service (newsletter, accounting, chat) about each of the club's events, with a signed POST.",
    listTitle: "Endpoints",
    empty: "No webhooks yet.",
    url: "Address (URL)",
    description: "Description",
    events: "Events",
    allEvents: "All events",
    allEventsHint: "Including those added later; otherwise tick the ones wanted below.",
    state: "State",
    details: "Details",
    enabled: "Enabled",
    disabled: "Disabled",
    disabledReason: { gone: "the address answered 410", failing: "failing for 3 days", manual: "by an admin" },
    failingSince: "Failing since {date}",
    add: "Add the webhook",
    addTitle: "Add a webhook",
    open: "Open",
    openOf: "Open the webhook {url}",
    edit: "Edit",
    enable: "Enable",
    disable: "Disable",
    remove: "Delete",
    removeConfirm: "Delete this webhook and its delivery log?",
    rotate: "Rotate the secret",
    rotateConfirm: "Make a new secret? The old one still signs for 24 h.",
    rotateHint: "The old secret still signs for 24 h, time to update the receiving service.",
    test: "Send a test",
    testHint: "Sends a webhook.test event; its outcome shows in the deliveries.",
    secretTitle: "Signing secret",
    secretText: "Copy it now into the receiving service: it will not be shown again.",
    rotatedText: "New secret: copy it now. The old one still signs until {date}.",
    copy: "Copy the secret",
    copied: "Copied",
    deliveries: "Deliveries",
    noDeliveries: "No deliveries yet.",
    type: "Event",
    status: "Status",
    statuses: { pending: "Pending", succeeded: "Succeeded", failed: "Failed" },
    attempts: "Attempts",
    lastCode: "Last code",
    nextAttempt: "Next attempt",
    created: "Created",
    retry: "Retry",
    retryOf: "Retry the {type} delivery of {date}",
    filterStatus: "Delivery status",
    all: "All",
    show: "Show",
    done: {
      created: "Webhook added.",
      saved: "Webhook saved.",
      enabled: "Webhook enabled.",
      disabled: "Webhook disabled.",
      deleted: "Webhook deleted.",
      tested: "Test event queued.",
      retried: "Delivery sent again.",
    },
  },
  de: {
    intro: "Ein Webhook benachrichtigt einen anderen Dienst (Newsletter, Buchhaltung, Chat) bei jedem Ereignis des Vereins mit einem signierten POST.",
    listTitle: "Empfangsadressen",
    empty: "Noch keine Webhooks.",
    url: "Adresse (URL)",
    description: "Beschreibung",
    events: "Ereignisse",
    allEvents: "Alle Ereignisse",
    allEventsHint: "Auch später hinzugefügte; sonst unten die gewünschten ankreuzen.",
    state: "Status",
    details: "Details",
    enabled: "Aktiv",
    disabled: "Deaktiviert",
    disabledReason: { gone: "die Adresse antwortete 410", failing: "seit 3 Tagen fehlerhaft", manual: "durch einen Admin" },
    failingSince: "Fehlerhaft seit {date}",
    add: "Webhook hinzufügen",
    addTitle: "Webhook hinzufügen",
    open: "Öffnen",
    openOf: "Webhook {url} öffnen",
    edit: "Bearbeiten",
    enable: "Aktivieren",
    disable: "Deaktivieren",
    remove: "Löschen",
    removeConfirm: "Diesen Webhook und sein Versandprotokoll löschen?",
    rotate: "Geheimnis erneuern",
    rotateConfirm: "Ein neues Geheimnis erstellen? Das alte signiert noch 24 Std.",
    rotateHint: "Das alte Geheimnis signiert noch 24 Std., Zeit genug, den empfangenden Dienst anzupassen.",
    test: "Test senden",
    testHint: "Sendet ein Ereignis webhook.test; sein Ergebnis erscheint bei den Zustellungen.",
    secretTitle: "Signaturgeheimnis",
    secretText: "Kopieren Sie es jetzt in den empfangenden Dienst: es wird nicht wieder angezeigt.",
    rotatedText: "Neues Geheimnis: kopieren Sie es jetzt. Das alte signiert noch bis {date}.",
    copy: "Geheimnis kopieren",
    copied: "Kopiert",
    deliveries: "Zustellungen",
    noDeliveries: "Noch keine Zustellungen.",
    type: "Ereignis",
    status: "Status",
    statuses: { pending: "Ausstehend", succeeded: "Erfolgreich", failed: "Fehlgeschlagen" },
    attempts: "Versuche",
    lastCode: "Letzter Code",
    nextAttempt: "Nächster Versuch",
    created: "Erstellt",
    retry: "Erneut senden",
    retryOf: "Zustellung {type} vom {date} erneut senden",
    filterStatus: "Status der Zustellungen",
    all: "Alle",
    show: "Anzeigen",
    done: {
      created: "Webhook hinzugefügt.",
      saved: "Webhook gespeichert.",
      enabled: "Webhook aktiviert.",
      disabled: "Webhook deaktiviert.",
      deleted: "Webhook gelöscht.",
      tested: "Testereignis in die Warteschlange gestellt.",
      retried: "Zustellung erneut gesendet.",
    },
  },
  it: {
    intro: "Un webhook avvisa un altro servizio (newsletter, contabilità, chat) di ogni evento del club, con un POST firmato.",
    listTitle: "Indirizzi di ricezione",
    empty: "Ancora nessun webhook.",
    url: "Indirizzo (URL)",
    description: "Descrizione",
    events: "Eventi",
    allEvents: "Tutti gli eventi",
    allEventsHint: "Anche quelli aggiunti in seguito; altrimenti spuntate quelli voluti qui sotto.",
    state: "Stato",
    details: "Dettagli",
    enabled: "Attivo",
    disabled: "Disattivato",
    disabledReason: { gone: "l'indirizzo ha risposto 410", failing: "in errore da 3 giorni", manual: "da un admin" },
    failingSince: "In errore dal {date}",
    add: "Aggiungi il webhook",
    addTitle: "Aggiungi un webhook",
    open: "Apri",
    openOf: "Apri il webhook {url}",
    edit: "Modifica",
    enable: "Attiva",
    disable: "Disattiva",
    remove: "Elimina",
    removeConfirm: "Eliminare questo webhook e il suo registro di invii?",
    rotate: "Cambia il segreto",
    rotateConfirm: "Creare un nuovo segreto? Il vecchio firma ancora per 24 h.",
    rotateHint: "Il vecchio segreto firma ancora per 24 h, il tempo di aggiornare il servizio che riceve.",
    test: "Invia un test",
    testHint: "Invia un evento webhook.test; il suo esito appare negli invii.",
    secretTitle: "Segreto di firma",
    secretText: "Copiatelo ora nel servizio che riceve: non sarà più mostrato.",
    rotatedText: "Nuovo segreto: copiatelo ora. Il vecchio firma ancora fino al {date}.",
    copy: "Copia il segreto",
    copied: "Copiato",
    deliveries: "Invii",
    noDeliveries: "Ancora nessun invio.",
    type: "Evento",
    status: "Stato",
    statuses: { pending: "In attesa", succeeded: "Riuscito", failed: "Fallito" },
    attempts: "Tentativi",
    lastCode: "Ultimo codice",
    nextAttempt: "Prossimo tentativo",
    created: "Creato il",
    retry: "Rinvia",
    retryOf: "Rinvia l'invio {type} del {date}",
    filterStatus: "Stato degli invii",
    all: "Tutti",
    show: "Mostra",
    done: {
      created: "Webhook aggiunto.",
      saved: "Webhook modificato.",
      enabled: "Webhook attivato.",
      disabled: "Webhook disattivato.",
      deleted: "Webhook eliminato.",
      tested: "Evento di test messo in coda.",
      retried: "Invio rilanciato.",
    },
  },
};
