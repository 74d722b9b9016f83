// generated/faker-names.json: the English definitions the dataset's faker reads (person.firstName
// by sex, person.lastName and its patterns: mock/data/faker.ts), taken from faker's own English
// locale, so that the dataset's Faker holds these and nothing else: a page's bundle then carries
// faker's class and these names instead of every English and base definition (faker 10's English
// locale entry, 434 KB minified). A definition the dataset reads and this file lacks throws (faker
// names it), so a generator that starts reading another one fails its tests at once.
import { faker } from "@faker-js/faker/locale/en";

/** The person definitions the dataset reads. */
const PERSON = ["first_name", "last_name", "last_name_pattern"] as const;

export function renderFakerNames(): { person: Record<string, unknown> } {
  const person = faker.rawDefinitions.person ?? {};
  return { person: Object.fromEntries(PERSON.map((name) => [name, person[name]])) };
}
