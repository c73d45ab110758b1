// The texts of the dashboard's overview page (dashboard/pages/overview.tsx), in the four languages.
import type { Locale } from "./messages";

export type OverviewTexts = {
  members: string;
  count: Record<"total" | "active" | "expired" | "pending" | "suspended" | "new_this_month", string>;
  revenue: string;
  revenueCaption: string;
  attendance: string;
  attendanceCaption: string;
  /** Said instead of a chart with nothing in it yet. */
  revenueEmpty: string;
  attendanceEmpty: string;
  month: string;
  week: string;
  amount: string;
  scans: string;
};

export const OVERVIEW_TEXTS: Record<Locale, OverviewTexts> = {
  fr: {
    members: "Membres",
    count: { total: "Total", active: "Actifs", expired: "Expirés", pending: "En attente", suspended: "Suspendus", new_this_month: "Nouveaux ce mois" },
    revenue: "Recettes par mois",
    revenueCaption: "Recettes brutes des 12 derniers mois, en {currency}",
    attendance: "Fréquentation par semaine",
    attendanceCaption: "Membres distincts contrôlés à l'entrée, 12 dernières semaines",
    revenueEmpty: "Aucune recette sur ces 12 mois pour l'instant : le graphique se remplira avec les premiers paiements.",
    attendanceEmpty: "Pas encore d'entrée contrôlée sur ces 12 semaines : le graphique se remplira avec les premiers passages à la porte.",
    month: "Mois",
    week: "Semaine du",
    amount: "Montant",
    scans: "Membres",
  },
  en: {
    members: "Members",
    count: { total: "Total", active: "Active", expired: "Expired", pending: "Pending", suspended: "Suspended", new_this_month: "New this month" },
    revenue: "Revenue by month",
    revenueCaption: "Gross revenue of the last 12 months, in {currency}",
    attendance: "Attendance by week",
    attendanceCaption: "Distinct members checked at the door, last 12 weeks",
    revenueEmpty: "No revenue in these 12 months yet: the chart fills in with the first payments.",
    attendanceEmpty: "No one checked in at the door in these 12 weeks yet: the chart fills in with the first check-ins.",
    month: "Month",
    week: "Week of",
    amount: "Amount",
    scans: "Members",
  },
  de: {
    members: "Mitglieder",
    count: { total: "Gesamt", active: "Aktiv", expired: "Abgelaufen", pending: "Ausstehend", suspended: "Gesperrt", new_this_month: "Neu diesen Monat" },
    revenue: "Einnahmen pro Monat",
    revenueCaption: "Bruttoeinnahmen der letzten 12 Monate, in {currency}",
    attendance: "Besuche pro Woche",
    attendanceCaption: "Verschiedene beim Einlass geprüfte Mitglieder, letzte 12 Wochen",
    revenueEmpty: "Noch keine Einnahmen in diesen 12 Monaten: Das Diagramm füllt sich mit den ersten Zahlungen.",
    attendanceEmpty: "Noch kein Einlass in diesen 12 Wochen: Das Diagramm füllt sich mit den ersten Kontrollen.",
    month: "Monat",
    week: "Woche vom",
    amount: "Betrag",
    scans: "Mitglieder",
  },
  it: {
    members: "Membri",
    count: { total: "Totale", active: "Attivi", expired: "Scaduti", pending: "In attesa", suspended: "Sospesi", new_this_month: "Nuovi questo mese" },
    revenue: "Entrate per mese",
    revenueCaption: "Entrate lorde degli ultimi 12 mesi, in {currency}",
    attendance: "Presenze per settimana",
    attendanceCaption: "Membri distinti controllati all'ingresso, ultime 12 settimane",
    revenueEmpty: "Ancora nessuna entrata in questi 12 mesi: il grafico si riempirà con i primi pagamenti.",
    attendanceEmpty: "Ancora nessun ingresso controllato in queste 12 settimane: il grafico si riempirà con i primi controlli.",
    month: "Mese",
    week: "Settimana del",
    amount: "Importo",
    scans: "Membri",
  },
};
