// The MSW side-by-side table (npm run bench -- --only msw; scripts/bench/msw-table.ts): each peer's
// figure beside its ratio to ours, a peer that was not measured named with its reason and no number,
// and every call's outcome counted, so that a quick answer that was a 404 reads as one.
import { describe, expect, it } from "vitest";
import { countOutcomes, sideBySideMarkdown, sideBySideRows, sideBySideText, type SideBySideEntry } from "../../scripts/bench/msw-table.js";

const KB = 1024;
const ours: SideBySideEntry = {
  label: "hr-service-mock/msw",
  figures: { firstBytes: 400 * KB, firstGzipBytes: 100 * KB, wholeBytes: 2000 * KB, wholeGzipBytes: 600 * KB, firstAnswerMs: 500, laterAnswerMs: 8 },
  outcomes: [["ok", 18]],
};

describe("sideBySideRows", () => {
  const cases: [string, { given: SideBySideEntry[]; want: string[][] }][] = [
    [
      "ours alone: the figures, no ratio",
      { given: [], want: [["hr-service-mock/msw", "100 KB", "400 KB", "600 KB", "2000 KB", "500 ms", "8 ms", "ok 18"]] },
    ],
    [
      "a peer: each figure with its ratio to ours, and its outcomes",
      {
        given: [{ label: "peer", version: "1.2.3", figures: { firstBytes: 800 * KB, firstGzipBytes: 250 * KB, wholeBytes: 800 * KB, wholeGzipBytes: 250 * KB, firstAnswerMs: 100, laterAnswerMs: 4 }, outcomes: [["ok", 6], ["404", 3]] }],
        want: [
          ["hr-service-mock/msw", "100 KB", "400 KB", "600 KB", "2000 KB", "500 ms", "8 ms", "ok 18"],
          ["peer 1.2.3", "250 KB (2.50x)", "800 KB (2.00x)", "250 KB (0.42x)", "800 KB (0.40x)", "100 ms (0.20x)", "4 ms (0.50x)", "ok 6, 404 3"],
        ],
      },
    ],
    [
      "a peer that was not measured: its reason, no figure",
      {
        given: [{ label: "peer", version: "not installed", notMeasured: "its CLI made no handlers: boom" }],
        want: [
          ["hr-service-mock/msw", "100 KB", "400 KB", "600 KB", "2000 KB", "500 ms", "8 ms", "ok 18"],
          ["peer not installed", "not measured: its CLI made no handlers: boom", "", "", "", "", "", ""],
        ],
      },
    ],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(sideBySideRows(ours, given)).toEqual(want);
  });
});

describe("countOutcomes", () => {
  const cases: [string, { given: string[]; want: Array<[string, number]> }][] = [
    ["none", { given: [], want: [] }],
    ["in the order first seen, statuses after ok kept after it", { given: ["ok", "400", "ok", "401", "400"], want: [["ok", 2], ["400", 2], ["401", 1]] }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(countOutcomes(given)).toEqual(want);
  });
});

describe("the table as text and as Markdown", () => {
  const rows = sideBySideRows(ours, [{ label: "peer", notMeasured: "a | b" }]);
  const cases: [string, { given: () => string; want: RegExp }][] = [
    ["text: a row not measured is its name and reason, unpadded", { given: () => sideBySideText(rows), want: /\npeer {17}not measured: a \| b$/ }],
    ["text: figures right-aligned under their header", { given: () => sideBySideText(rows).split("\n")[1], want: /^hr-service-mock\/msw {16}100 KB {17}400 KB/ }],
    ["markdown: a pipe in a cell is escaped", { given: () => sideBySideMarkdown(rows).at(-1)!, want: /^\| peer \| not measured: a \\\| b \|/ }],
    ["markdown: one header, one alignment row, one row each", { given: () => String(sideBySideMarkdown(rows).length), want: /^4$/ }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(given()).toMatch(want);
  });
});
