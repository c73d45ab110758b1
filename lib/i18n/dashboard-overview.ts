// The texts of the dashboard's overview page (dashboard/pages/overview.tsx), in the four languages.
import type { Locale } from "./messages";

export type OverviewTexts = {
  members: string;
  count: Record<"total" | "active" | "expired" | "pending" | "suspended" | "new_this_month", string>;
  revenue: string;
  revenueCaption: string;
  attendance: string;
  attendanceCaption: string;
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
    month: "Mese",
    week: "Settimana del",
    amount: "Importo",
    scans: "Membri",
  },
};
