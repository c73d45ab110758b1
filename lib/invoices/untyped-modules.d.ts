// Packages that ship no types: what lib/invoices calls of them.
// sepa-payment-qr-code: the EPC payload (lib/invoices/payment-part.ts).
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

// fontkit 2 ships no types either: lib/invoices/pdf.ts parses the letterhead's fonts once with it.
declare module "fontkit" {
  /** A parsed font, which PDFKit's registerFont takes as it is (it has `layout`). */
  export type GlyphRun = { glyphs: unknown[]; positions: Record<string, number>[]; readonly advanceWidth: number };
  export type Font = { layout(text: string, features?: unknown): GlyphRun };
  export function create(data: Uint8Array): Font;
}
