// The exports' CSV writer (lib/csv) writes what papaparse writes with the formula escape read
// right (`/^[=+\-@\t\r]/`), on random text full of the characters that need care, and escapes
// a formula that papaparse's own `escapeFormulae: true` lets through.
import { expect, it } from "bun:test";
import fc from "fast-check";
import Papa from "papaparse";
import { csvCell, csvLines } from "../../lib/csv";

const tricky = fc.string({ unit: fc.constantFrom("a", "é", " ", ",", '"', "\r", "\n", "=", "+", "-", "@", "\t", "\uFEFF", "'", "1", ";") });
const value = fc.oneof(tricky, fc.constant(null), fc.integer({ min: -1000, max: 1000 }), fc.boolean());

it("writes papaparse's bytes (formulae escaped from the first character) for any cells, with and without a header", () => {
  fc.assert(
    fc.property(fc.array(fc.array(value, { minLength: 3, maxLength: 3 }), { maxLength: 8 }), fc.boolean(), (rows, withHeader) => {
      const fields = ["a b", "=x", 'c"d'];
      const papa = Papa.unparse({ fields, data: rows }, { escapeFormulae: /^[=+\-@\t\r]/, header: withHeader });
      expect(csvLines(rows, withHeader ? fields : undefined)).toBe(papa);
    }),
    { numRuns: 2_000 },
  );
});

it("escapes a formula followed by a line break, which papaparse's escapeFormulae: true writes as it is", () => {
  const cell = '=HYPERLINK("http://evil.example")\nok';
  expect(Papa.unparse([[cell]], { escapeFormulae: true })).toBe('"=HYPERLINK(""http://evil.example"")\nok"');
  expect(csvCell(cell)).toBe('"\'=HYPERLINK(""http://evil.example"")\nok"');
  expect(csvCell("-3")).toBe(`"'-3"`);
  expect(csvCell(-3)).toBe("-3");
  expect(csvCell(" padded")).toBe('" padded"');
});
