// The employee search behind SearchTerm: one substring search over every employee's lower-cased
// name and email, which must find exactly what a test of each text finds, and follow changes.
import { describe, expect, it } from "vitest";
import { employeesMatching, replaceEmployee } from "../../mock/data/organization.js";
import { freshDataset } from "./fixture.js";

describe("employeesMatching", () => {
  const ds = freshDataset();
  const org = ds.organizations[0];
  const someone = org.employees[3];
  const scanned = (term: string) => new Set(org.employees.filter((e) => [e.fullName, e.email].some((t) => t.toLowerCase().includes(term))).map((e) => e.id));

  const cases: [string, { given: string }][] = [
    ["a common pair of letters", { given: "an" }],
    ["one employee's whole email", { given: someone.email.toLowerCase() }],
    ["a full name", { given: someone.fullName.toLowerCase() }],
    ["the end of a name joined to the start of the email (two texts, no match)", { given: `${someone.fullName.slice(-2)}${someone.email.slice(0, 2)}`.toLowerCase() }],
    ["a name's end and the next employee's start", { given: `${someone.email.slice(-2)}${org.employees[4].fullName.slice(0, 2)}`.toLowerCase() }],
    ["a text nobody has", { given: "zzqx" }],
    ["the empty term (everyone)", { given: "" }],
  ];
  it.each(cases)("%s", (_name, { given }) => {
    expect(employeesMatching(org, given), `employees matching ${JSON.stringify(given)}`).toEqual(scanned(given));
  });

  it("finds an employee under a changed name once the record is replaced", () => {
    const changed = { ...someone, fullName: "Quillon Zebedee" };
    replaceEmployee(org, changed);
    expect([...employeesMatching(org, "quillon zeb")], "the new name").toEqual([someone.id]);
  });
});
