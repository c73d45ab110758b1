// Club and event slugs (URLs, file names): letters outside ASCII are spelled out, not dropped.
import { expect, it } from "bun:test";
import { slugify } from "../../lib/clubs";

it("spells out accented letters and those NFKD keeps whole (Ł, ø, ß)", () => {
  expect(slugify("Cercle d'échecs de Łódź")).toBe("cercle-d-echecs-de-lodz");
  expect(slugify("Søndre Straße Æventyr")).toBe("sondre-strasse-aeventyr");
  expect(slugify("  !!  ")).toBe("club");
});

it("takes the word to use when nothing of the text is left", () => {
  expect(slugify("  !!  ", "event")).toBe("event");
  expect(slugify("Club", "event")).toBe("club");
});
