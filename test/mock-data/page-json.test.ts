// The success envelope writes a page of list items made once per record (perRecord) from their JSON
// written once: the bytes must be JSON.stringify's, whatever the page holds.
import { describe, expect, it } from "vitest";
import { successBody, writtenOnce } from "../../mock/kernel/envelope.js";

const once = (item: object) => writtenOnce(Object.freeze(item));
const a = once({ id: "a", name: "é \u2028 \"quoted\" \\", days: 1.5, nested: [1, { deep: null }], gone: undefined });
const b = once({ id: "b", list: [], empty: {} });
const plain = { id: "c" };

const cases: [string, unknown][] = [
  ["a page of items written once", { data: [a, b], pageNumber: 2, pageSize: 2, totalRecords: 9, totalPages: 5 }],
  ["an empty page", { data: [], pageNumber: 1, pageSize: 10, totalRecords: 0, totalPages: 0 }],
  ["data alone", { data: [a] }],
  ["an empty data alone", { data: [] }],
  ["data not the first key", { pageNumber: 1, data: [a] }],
  ["an item not written once among others", { data: [a, plain], pageNumber: 1 }],
  ["a field left undefined beside data", { data: [b], skipped: undefined, last: "z" }],
  ["an array of items (no page)", [a, b]],
  ["one item", a],
  ["null", null],
];

describe("successBody: a page's items written once give JSON.stringify's bytes", () => {
  it.each(cases)("%s", (_label, data) => {
    const expected = `{"isSuccessful":true,"code":"00","message":"Success","data":${JSON.stringify(data)}}`;
    expect(successBody(data), `successBody wrote other bytes than JSON.stringify for ${JSON.stringify(data)}`).toBe(expected);
  });
});
