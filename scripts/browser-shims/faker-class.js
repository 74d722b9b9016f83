// "@faker-js/faker/locale/en" in a bundle (a browser's, and the Node bundle's: scripts/lib/node-bundle.ts):
// what mock/data/faker.ts reads of it, faker's class (as the English instance's constructor),
// imported from the package's main entry, of which the bundler keeps the class alone (the package
// declares no side effects): no locale's definitions ship; the dataset's names come from
// generated/faker-names.json.
import { Faker } from "@faker-js/faker";

export const faker = { constructor: Faker };
