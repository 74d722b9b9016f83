// Faker on only the English person names the dataset reads (generated/faker-names.json), a new
// instance per caller (each seeds its own); any other definition throws, naming it. The class comes
// from the per-locale entry: the main entry evaluates every locale (about 0.7 s and 35 MB in Node).
// A bundle (a page's, the package's) keeps the class alone (scripts/browser-shims/faker-class.js).
import type { Faker } from "@faker-js/faker";
import { faker as english } from "@faker-js/faker/locale/en";
import names from "../../generated/faker-names.json" with { type: "json" };

const FakerClass = english.constructor as new (options: { locale: Faker["rawDefinitions"] }) => Faker;

/** A Faker of its own on the English names the dataset reads. */
export function englishFaker(): Faker {
  return new FakerClass({ locale: names as Faker["rawDefinitions"] });
}
