// The package ships no types: what lib/invoices/payment-part.ts calls of it.
declare module "sepa-payment-qr-code" {
  type EpcData = {
    name: string;
    iban: string;
    bic?: string;
    amount: number | null;
    purposeCode?: string;
    structuredReference?: string;
    unstructuredReference?: string;
    information?: string;
  };
  /** The EPC QR code's payload (BCD 002), its lines joined by LF; throws on data the standard refuses. */
  export default function generateQrCode(data: EpcData): string;
}
