// The employee search behind SearchTerm: over every employee's lower-cased name and email, through
// an index of their pairs of characters, it must find exactly what a test of each text finds, and
// follow changes.
import { describe, expect, it } from "vitest";
import { employeesMatching } from "../../mock/data/employee-search.js";
import { insertEmployee, replaceEmployee } from "../../mock/data/organization.js";
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
    ["one letter", { given: "q" }],
    ["every pair of the term held, not the term (\"anan\")", { given: "anan" }],
    ["a separator character (in no text)", { given: "\u0000" }],
    ["a name with a separator character inside", { given: `${someone.fullName.slice(0, 2).toLowerCase()}\u0000` }],
    ["the empty term (everyone)", { given: "" }],
  ];
  it.each(cases)("%s", (_name, { given }) => {
    expect(employeesMatching(org.employees, given), `employees matching ${JSON.stringify(given)}`).toEqual(scanned(given));
  });

  it("finds an employee under a changed name once the record is replaced", () => {
    const changed = { ...someone, fullName: "Quillon Zebedee" };
    replaceEmployee(org, changed);
    expect([...employeesMatching(org.employees, "quillon zeb")], "the new name").toEqual([someone.id]);
  });

  it("finds an employee added after a search", () => {
    expect([...employeesMatching(org.employees, "xanthippe")], "before").toEqual([]);
    const added = { ...org.employees[5], id: "00000000-0000-4000-8000-00000000e5e5", code: "ZZ-9999", fullName: "Xanthippe Oduya" };
    insertEmployee(org, added);
    expect([...employeesMatching(org.employees, "xanthippe")], "the added employee").toEqual([added.id]);
  });
});
