// One check of a keys file's entry, for both its readers: the mock (hr-mock serve --keys, startMock,
// createHandlers), which serves the key and so needs it and its organisation, and hr-contract pact
// --keys, which looks a key up by its value or by a provider state's label.
import { describe, expect, it } from "vitest";
import { KEY_FIELDS, KNOWN_PERMISSIONS, keysFileProblem, readKeyEntry, type KeysReader } from "../../src/contract/keys-form.js";
import { permissions } from "../../generated/facts.js";

const LEAVE = permissions.leaveView;
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const KNOWN = escaped(KNOWN_PERMISSIONS.join(", "));

describe("a keys file's entry", () => {
  const cases: [string, { given: unknown; reader: KeysReader; want: object | RegExp }][] = [
    ["the mock's full form", { given: { key: "k1", organisation: 2, permissions: [LEAVE], label: "two" }, reader: "mock", want: { key: "k1", organisation: 2, permissions: [LEAVE], label: "two" } }],
    ["an organisation named by its id", { given: { key: "k1", organisation: "org-id", permissions: [] }, reader: "mock", want: { key: "k1", organisation: "org-id", permissions: [] } }],
    ["a permission written twice, held once", { given: { key: "k1", organisation: 1, permissions: [LEAVE, LEAVE] }, reader: "mock", want: { permissions: [LEAVE] } }],
    ["the mock: no organisation", { given: { key: "k1", permissions: [] }, reader: "mock", want: /^"organisation" must be 1, 2/ }],
    ["the mock: a label instead of the key", { given: { label: "who", organisation: 1, permissions: [] }, reader: "mock", want: /^"key" must be a non-empty string without spaces$/ }],
    ["a key with a space", { given: { key: "a b", organisation: 1, permissions: [] }, reader: "mock", want: /^"key" must be a non-empty string without spaces$/ }],
    ["the Pact check: a key without an organisation", { given: { key: "k1", permissions: [LEAVE] }, reader: "pact", want: { key: "k1", permissions: [LEAVE] } }],
    ["the Pact check: a label without a key", { given: { label: "leave viewer", permissions: [LEAVE] }, reader: "pact", want: { label: "leave viewer", permissions: [LEAVE] } }],
    ["the Pact check: the mock's full form", { given: { key: "k1", organisation: 1, permissions: [], label: "x" }, reader: "pact", want: { key: "k1", organisation: 1, label: "x" } }],
    ["the Pact check: neither key nor label", { given: { permissions: [LEAVE] }, reader: "pact", want: /^"key" must be a non-empty string without spaces, or give a "label" instead$/ }],
    ["the Pact check: organisation 0", { given: { key: "k1", organisation: 0, permissions: [] }, reader: "pact", want: /^"organisation" must be 1, 2/ }],
    ["a label that is no string", { given: { key: "k1", organisation: 1, permissions: [], label: 7 }, reader: "mock", want: /^"label" must be a string$/ }],
    ["permissions that are no list", { given: { key: "k1", permissions: LEAVE }, reader: "pact", want: new RegExp(`^"permissions" must be an array of permission names \\(${KNOWN}\\)$`) }],
    ["a misspelt permission", { given: { key: "k1", permissions: ["Leave: Veiw"] }, reader: "pact", want: new RegExp(`^unknown permission "Leave: Veiw" \\(known: ${KNOWN}\\)$`) }],
    ["a field of neither form", { given: { key: "k1", organisation: 1, permissions: [], scopes: [] }, reader: "mock", want: new RegExp(`^unknown field "scopes" \\(fields: ${escaped(KEY_FIELDS.join(", "))}\\)$`) }],
    ["an entry that is a string", { given: "k1", reader: "pact", want: /^must be an object like \{ "key"/ }],
  ];
  it.each(cases)("%s", (_name, { given, reader, want }) => {
    const entry = readKeyEntry(given, reader);
    if (want instanceof RegExp) {
      expect("problem" in entry ? entry.problem : `accepted as ${JSON.stringify(entry)}`).toMatch(want);
    } else {
      expect(entry, "the entry as read").toMatchObject(want);
    }
  });

  it("names a key's secret value in no problem", () => {
    const entry = readKeyEntry({ key: "secret-value", organisation: 1, permissions: ["nope"] }, "mock");
    expect("problem" in entry && entry.problem).toMatch(/unknown permission "nope"/);
    expect(JSON.stringify(entry)).not.toContain("secret-value");
  });

  it.each([
    ["an object", { key: "k" }, /must hold a JSON array like \[\{ "key"/],
    ["a string", "k", /must hold a JSON array/],
  ])("a file that holds %s is not a keys file", (_name, given, want) => {
    expect(keysFileProblem(given)).toMatch(want);
  });
  it("a file that holds a list is one", () => expect(keysFileProblem([])).toBeUndefined());
});
