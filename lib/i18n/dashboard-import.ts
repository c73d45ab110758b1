// The texts of the dashboard's import page (dashboard/pages/import.tsx) and of the warning shown
// when a club sells memberships at 0 (there and on the settings page), in the four languages.
// Placeholders: {n} (a Plural's number), {m}, {lines}, {create}, {update}, {unchanged}, {errors},
// {created}, {updated}, {name}, {price}.
import type { Plural } from "./dashboard";
import type { Locale } from "./messages";

export type ImportTexts = {
  title: string;
  help: string;
  file: string;
  chooseFile: string;
  chooseAgain: string;
  mode: string;
  modes: Record<"create" | "update", string>;
  /** A line whose email the club knows, left out in `create` mode: `{email}`, the control `{mode}` and its choice `{update}`. */
  memberExists: string;
  tier: string;
  tierHint: string;
  noTier: string;
  tierOption: string;
  preview: string;
  previewTitle: string;
  /** `{lines}`: `previewLines`. */
  previewCounts: string;
  previewLines: Plural;
  importAll: Plural;
  /** `{n}` good lines, skipping `{m}`. */
  importGood: Plural;
  fixAgain: string;
  fixHint: string;
  nothingToImport: string;
  noGoodLine: string;
  doneTitle: string;
  nothingTitle: string;
  /** `{created}`: `createdCount`; `{updated}`: `updatedCount`. */
  written: string;
  createdCount: Plural;
  updatedCount: Plural;
  skippedErrors: Plural;
  unchanged: Plural;
  stopped: Plural;
  changedSincePreview: string;
  lineErrors: string;
  line: string;
  problem: string;
  warnings: string;
  changes: string;
  /** What a line does, in the line-by-line detail. */
  lineActions: Record<"create" | "update", string>;
  /** `{line}`, `{email}`, `{action}` (lineActions), `{fields}` (fieldValue each, joined). */
  changeLine: string;
  /** `{field}` and its `{value}` ("before → after" on an update). */
  fieldValue: string;
  /** The payment status's name and values (the other fields take the member form's labels). */
  paymentStatus: string;
  paymentStatuses: Record<"pending" | "paid" | "suspended", string>;
  toMembers: string;
  zeroPrice: string;
  zeroPriceSettings: string;
  zeroPriceTiers: string;
};

export const IMPORT_TEXTS: Record<Locale, ImportTexts> = {
  fr: {
    title: "Importer des membres",
    help: "Un fichier CSV (enregistré depuis Excel, ou l'export des membres) : prénom, nom, e-mail et fin d'adhésion ; en option début, statut et moyen de paiement, catégorie et vos champs personnalisés. L'aperçu vient d'abord : rien n'est écrit avant que vous confirmiez.",
    file: "Fichier CSV",
    chooseFile: "Choisissez un fichier CSV.",
    chooseAgain: "Choisissez à nouveau le fichier : le navigateur ne le garde pas après l'aperçu sans JavaScript.",
    mode: "Membres déjà connus",
    modes: { create: "Les laisser tels quels", update: "Les mettre à jour" },
    memberExists: "Un membre a déjà l'adresse {email} : ligne laissée de côté, rien n'est changé. Pour le mettre à jour, choisissez « {mode} » → « {update} ».",
    tier: "Catégorie par défaut",
    tierHint: "Pour les lignes sans catégorie (colonne « Catégorie » vide ou absente). En mise à jour, seulement pour les membres qui n'en ont pas encore.",
    noTier: "Aucune",
    tierOption: "{name} ({price})",
    preview: "Aperçu",
    previewTitle: "Aperçu de l'import",
    previewCounts: "{lines} : {create} à créer, {update} à mettre à jour, {unchanged} sans changement, {errors} en erreur.",
    previewLines: { one: "{n} ligne lue", other: "{n} lignes lues" },
    importAll: { one: "Importer la ligne", other: "Importer les {n} lignes" },
    importGood: { one: "Importer la ligne correcte (ignorer {m})", other: "Importer les {n} lignes correctes (ignorer {m})" },
    fixAgain: "Corriger et téléverser à nouveau",
    fixHint: "Corrigez les lignes en erreur dans votre fichier, enregistrez-le, choisissez-le à nouveau et relancez l'aperçu.",
    nothingToImport: "Rien à importer : aucune ligne ne change quoi que ce soit.",
    noGoodLine: "Aucune ligne ne peut être importée.",
    doneTitle: "Import terminé",
    nothingTitle: "Rien n'a été importé",
    written: "Écrit : {created}, {updated}.",
    createdCount: { one: "{n} membre créé", other: "{n} membres créés" },
    updatedCount: { other: "{n} mis à jour" },
    skippedErrors: { one: "{n} ligne en erreur ignorée, ci-dessous.", other: "{n} lignes en erreur ignorées, ci-dessous." },
    unchanged: { one: "{n} ligne sans changement.", other: "{n} lignes sans changement." },
    stopped: { one: "Rien n'a été écrit : {n} ligne en erreur, ci-dessous.", other: "Rien n'a été écrit : {n} lignes en erreur, ci-dessous." },
    changedSincePreview: "Le fichier ou les options ont changé depuis l'aperçu : rien n'a été écrit. Voici l'aperçu de votre nouveau choix.",
    lineErrors: "Lignes en erreur",
    line: "Ligne",
    problem: "Problème",
    warnings: "Avertissements",
    changes: "Détail ligne par ligne",
    lineActions: { create: "nouveau membre", update: "mis à jour" },
    changeLine: "Ligne {line} : {email}, {action} — {fields}",
    fieldValue: "{field} : {value}",
    paymentStatus: "Paiement",
    paymentStatuses: { pending: "en attente", paid: "payé", suspended: "suspendu" },
    toMembers: "Voir les membres",
    zeroPrice:
      "Votre club vend l'adhésion à 0 : la cotisation est de 0 et aucune catégorie n'a de prix. La page d'un membre lui propose alors « Rien à payer » au renouvellement.",
    zeroPriceSettings: "Fixer la cotisation",
    zeroPriceTiers: "Donner un prix à une catégorie",
  },
  en: {
    title: "Import members",
    help: "A CSV file (saved from Excel, or the members export): first name, last name, email and membership end; optionally start, payment status and method, tier and your custom fields. The preview comes first: nothing is written until you confirm.",
    file: "CSV file",
    chooseFile: "Choose a CSV file.",
    chooseAgain: "Choose the file again: without JavaScript the browser does not keep it after the preview.",
    mode: "Members already known",
    modes: { create: "Leave them as they are", update: "Update them" },
    memberExists: "A member already has the address {email}: line left out, nothing changed. To update them, choose “{mode}” → “{update}”.",
    tier: "Default tier",
    tierHint: "For the lines without a tier (a “Tier” column empty or absent). When updating, only for members who have none yet.",
    noTier: "None",
    tierOption: "{name} ({price})",
    preview: "Preview",
    previewTitle: "Import preview",
    previewCounts: "{lines}: {create} to create, {update} to update, {unchanged} unchanged, {errors} with errors.",
    previewLines: { one: "{n} line read", other: "{n} lines read" },
    importAll: { one: "Import the line", other: "Import the {n} lines" },
    importGood: { one: "Import the good line (skip {m})", other: "Import the {n} good lines (skip {m})" },
    fixAgain: "Fix and upload again",
    fixHint: "Correct the lines with errors in your file, save it, choose it again and preview again.",
    nothingToImport: "Nothing to import: no line changes anything.",
    noGoodLine: "No line can be imported.",
    doneTitle: "Import done",
    nothingTitle: "Nothing imported",
    written: "Written: {created}, {updated}.",
    createdCount: { one: "{n} member created", other: "{n} members created" },
    updatedCount: { other: "{n} updated" },
    skippedErrors: { one: "{n} line with errors skipped, listed below.", other: "{n} lines with errors skipped, listed below." },
    unchanged: { one: "{n} line unchanged.", other: "{n} lines unchanged." },
    stopped: { one: "Nothing was written: {n} line with errors, listed below.", other: "Nothing was written: {n} lines with errors, listed below." },
    changedSincePreview: "The file or the options changed since the preview: nothing was written. Here is the preview of what you chose now.",
    lineErrors: "Lines with errors",
    line: "Line",
    problem: "Problem",
    warnings: "Warnings",
    changes: "Line by line",
    lineActions: { create: "new member", update: "updated" },
    changeLine: "Line {line}: {email}, {action} — {fields}",
    fieldValue: "{field}: {value}",
    paymentStatus: "Payment",
    paymentStatuses: { pending: "pending", paid: "paid", suspended: "suspended" },
    toMembers: "See the members",
    zeroPrice: "Your club sells memberships at 0: the membership fee is 0 and no tier has a price. A member's page then offers “Nothing to pay” at renewal.",
    zeroPriceSettings: "Set the membership fee",
    zeroPriceTiers: "Give a tier a price",
  },
  de: {
    title: "Mitglieder importieren",
    help: "Eine CSV-Datei (aus Excel gespeichert oder der Mitgliederexport): Vorname, Nachname, E-Mail und Mitgliedschaftsende; wahlweise Beginn, Zahlungsstatus und -art, Kategorie und Ihre eigenen Felder. Zuerst kommt die Vorschau: nichts wird geschrieben, bevor Sie bestätigen.",
    file: "CSV-Datei",
    chooseFile: "Wählen Sie eine CSV-Datei.",
    chooseAgain: "Wählen Sie die Datei erneut: ohne JavaScript behält der Browser sie nach der Vorschau nicht.",
    mode: "Bereits bekannte Mitglieder",
    modes: { create: "Unverändert lassen", update: "Aktualisieren" },
    memberExists: "Ein Mitglied hat bereits die Adresse {email}: Zeile übergangen, nichts geändert. Zum Aktualisieren wählen Sie „{mode}“ → „{update}“.",
    tier: "Standardkategorie",
    tierHint: "Für Zeilen ohne Kategorie (Spalte „Kategorie“ leer oder nicht vorhanden). Beim Aktualisieren nur für Mitglieder, die noch keine haben.",
    noTier: "Keine",
    tierOption: "{name} ({price})",
    preview: "Vorschau",
    previewTitle: "Importvorschau",
    previewCounts: "{lines}: {create} neu, {update} zu aktualisieren, {unchanged} unverändert, {errors} fehlerhaft.",
    previewLines: { one: "{n} Zeile gelesen", other: "{n} Zeilen gelesen" },
    importAll: { one: "Die Zeile importieren", other: "Die {n} Zeilen importieren" },
    importGood: { one: "Die korrekte Zeile importieren ({m} überspringen)", other: "Die {n} korrekten Zeilen importieren ({m} überspringen)" },
    fixAgain: "Korrigieren und neu hochladen",
    fixHint: "Korrigieren Sie die fehlerhaften Zeilen in Ihrer Datei, speichern Sie sie, wählen Sie sie erneut und starten Sie die Vorschau noch einmal.",
    nothingToImport: "Nichts zu importieren: keine Zeile ändert etwas.",
    noGoodLine: "Keine Zeile kann importiert werden.",
    doneTitle: "Import abgeschlossen",
    nothingTitle: "Nichts importiert",
    written: "Geschrieben: {created}, {updated}.",
    createdCount: { one: "{n} Mitglied neu angelegt", other: "{n} Mitglieder neu angelegt" },
    updatedCount: { other: "{n} aktualisiert" },
    skippedErrors: { one: "{n} fehlerhafte Zeile übersprungen, unten aufgeführt.", other: "{n} fehlerhafte Zeilen übersprungen, unten aufgeführt." },
    unchanged: { one: "{n} Zeile unverändert.", other: "{n} Zeilen unverändert." },
    stopped: {
      one: "Es wurde nichts geschrieben: {n} fehlerhafte Zeile, unten aufgeführt.",
      other: "Es wurde nichts geschrieben: {n} fehlerhafte Zeilen, unten aufgeführt.",
    },
    changedSincePreview: "Die Datei oder die Optionen haben sich seit der Vorschau geändert: nichts wurde geschrieben. Hier die Vorschau Ihrer neuen Wahl.",
    lineErrors: "Fehlerhafte Zeilen",
    line: "Zeile",
    problem: "Problem",
    warnings: "Hinweise",
    changes: "Zeile für Zeile",
    lineActions: { create: "neues Mitglied", update: "geändert" },
    changeLine: "Zeile {line}: {email}, {action} — {fields}",
    fieldValue: "{field}: {value}",
    paymentStatus: "Zahlung",
    paymentStatuses: { pending: "ausstehend", paid: "bezahlt", suspended: "gesperrt" },
    toMembers: "Zu den Mitgliedern",
    zeroPrice:
      "Ihr Verein verkauft die Mitgliedschaft für 0: der Mitgliederbeitrag ist 0 und keine Kategorie hat einen Preis. Die Seite eines Mitglieds zeigt dann bei der Verlängerung „Nichts zu bezahlen“.",
    zeroPriceSettings: "Mitgliederbeitrag festlegen",
    zeroPriceTiers: "Einer Kategorie einen Preis geben",
  },
  it: {
    title: "Importa membri",
    help: "Un file CSV (salvato da Excel o l'esportazione dei membri): nome, cognome, email e fine dell'adesione; facoltativi inizio, stato e metodo di pagamento, categoria e i vostri campi personalizzati. Prima viene l'anteprima: nulla viene scritto finché non confermi.",
    file: "File CSV",
    chooseFile: "Scegli un file CSV.",
    chooseAgain: "Scegli di nuovo il file: senza JavaScript il browser non lo conserva dopo l'anteprima.",
    mode: "Membri già noti",
    modes: { create: "Lasciarli come sono", update: "Aggiornarli" },
    memberExists: "Un membro ha già l'indirizzo {email}: riga tralasciata, nulla è cambiato. Per aggiornarlo, scegli «{mode}» → «{update}».",
    tier: "Categoria predefinita",
    tierHint: "Per le righe senza categoria (colonna «Categoria» vuota o assente). In aggiornamento, solo per i membri che non ne hanno ancora una.",
    noTier: "Nessuna",
    tierOption: "{name} ({price})",
    preview: "Anteprima",
    previewTitle: "Anteprima dell'importazione",
    previewCounts: "{lines}: {create} da creare, {update} da aggiornare, {unchanged} senza modifiche, {errors} con errori.",
    previewLines: { one: "{n} riga letta", other: "{n} righe lette" },
    importAll: { one: "Importa la riga", other: "Importa le {n} righe" },
    importGood: { one: "Importa la riga corretta (salta {m})", other: "Importa le {n} righe corrette (salta {m})" },
    fixAgain: "Correggi e carica di nuovo",
    fixHint: "Correggi le righe con errori nel file, salvalo, sceglilo di nuovo e rifai l'anteprima.",
    nothingToImport: "Niente da importare: nessuna riga cambia qualcosa.",
    noGoodLine: "Nessuna riga può essere importata.",
    doneTitle: "Importazione terminata",
    nothingTitle: "Nulla è stato importato",
    written: "Scritto: {created}, {updated}.",
    createdCount: { one: "{n} membro creato", other: "{n} membri creati" },
    updatedCount: { one: "{n} aggiornato", other: "{n} aggiornati" },
    skippedErrors: { one: "{n} riga con errori saltata, elencata sotto.", other: "{n} righe con errori saltate, elencate sotto." },
    unchanged: { one: "{n} riga senza modifiche.", other: "{n} righe senza modifiche." },
    stopped: {
      one: "Non è stato scritto nulla: {n} riga con errori, elencata sotto.",
      other: "Non è stato scritto nulla: {n} righe con errori, elencate sotto.",
    },
    changedSincePreview: "Il file o le opzioni sono cambiati dopo l'anteprima: non è stato scritto nulla. Ecco l'anteprima della nuova scelta.",
    lineErrors: "Righe con errori",
    line: "Riga",
    problem: "Problema",
    warnings: "Avvisi",
    changes: "Riga per riga",
    lineActions: { create: "nuovo membro", update: "aggiornato" },
    changeLine: "Riga {line}: {email}, {action} — {fields}",
    fieldValue: "{field}: {value}",
    paymentStatus: "Pagamento",
    paymentStatuses: { pending: "in attesa", paid: "pagato", suspended: "sospeso" },
    toMembers: "Vedi i membri",
    zeroPrice:
      "Il club vende l'adesione a 0: la quota è 0 e nessuna categoria ha un prezzo. La pagina di un membro propone allora «Niente da pagare» al rinnovo.",
    zeroPriceSettings: "Fissare la quota",
    zeroPriceTiers: "Dare un prezzo a una categoria",
  },
};
