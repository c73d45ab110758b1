// sortNameOf: the stored key that orders members by last then first name (the list's `name`
// sort and the PDF roster, both read in SQLite's byte order) agrees with Intl.Collator at base
// strength in each of the club languages, for names in the letters clubs meet.
import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { sortNameOf } from "../../db/text";

const LETTERS = [..."abcdeghilmnorstuzABCDELMOSZ", ..."éèêëàâäçîïôöùûüÿÉÈÀÖÜ", ..."łŁżŻźśćńąęóČčřŘšŠžŽďťňůý", " "];
const name = fc.array(fc.constantFrom(...LETTERS), { minLength: 1, maxLength: 7 }).map((cs) => cs.join("").trim() || "a");
const person = fc.record({ first_name: name, last_name: name });

const bytes = (a: string, b: string) => Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));

describe("sortNameOf", () => {
  for (const locale of ["fr", "en", "de", "it"]) {
    it(`orders like Intl.Collator("${locale}") at base strength, last name then first name`, () => {
      const collator = new Intl.Collator(locale, { sensitivity: "base" });
      fc.assert(
        fc.property(person, person, (a, b) => {
          const expected = Math.sign(collator.compare(a.last_name, b.last_name) || collator.compare(a.first_name, b.first_name));
          expect(bytes(sortNameOf(a), sortNameOf(b))).toBe(expected);
        }),
        { numRuns: 3000 },
      );
    });
  }

  it("puts a shorter last name first whatever the first names (Roy, Zoé before Royer, Anna)", () => {
    expect(bytes(sortNameOf({ last_name: "Roy", first_name: "Zoé" }), sortNameOf({ last_name: "Royer", first_name: "Anna" }))).toBe(-1);
    expect(sortNameOf({ last_name: " Żółć ", first_name: "ŁUKASZ" })).toBe("zolc\u0001lukasz");
  });
});
