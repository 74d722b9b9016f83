// Faker with the English locale, one new instance per caller (each seeds its own). The package's
// main entry evaluates every locale it ships (about 0.7 s and 35 MB at start-up); its documented
// per-locale entry evaluates one and exports an instance, whose class and definitions give more.
import type { Faker } from "@faker-js/faker";
import { faker as english } from "@faker-js/faker/locale/en";

const EnglishFaker = english.constructor as new (options: { locale: Faker["rawDefinitions"] }) => Faker;

/** A Faker of its own on the English (and base) definitions, as `new Faker({ locale: [en, base] })` gives. */
export function englishFaker(): Faker {
  return new EnglishFaker({ locale: english.rawDefinitions });
}
