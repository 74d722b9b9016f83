// Faker with the English names the dataset reads (generated/faker-names.json, taken from faker's
// English locale by npm run generate), one new instance per caller (each seeds its own). The
// dataset reads person names and otherwise faker's seeded numbers, picks and uuids, which need no
// definitions; a definition it does not have throws, naming it. The class comes from the per-locale
// entry (the package's main entry evaluates every locale it ships, about 0.7 s and 35 MB in Node);
// a bundle (a page's, the package's) takes it from the main entry instead, where the bundler keeps
// the class alone (scripts/browser-shims/faker-class.js), so it carries no locale but these names.
import type { Faker } from "@faker-js/faker";
import { faker as english } from "@faker-js/faker/locale/en";
import names from "../../generated/faker-names.json" with { type: "json" };

const FakerClass = english.constructor as new (options: { locale: Faker["rawDefinitions"] }) => Faker;

/** A Faker of its own on the English names the dataset reads. */
export function englishFaker(): Faker {
  return new FakerClass({ locale: names as Faker["rawDefinitions"] });
}
