// Text to HTML for the hand-built pages: everything from the specs is escaped; only `code` spans
// of their descriptions become markup.

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** A spec sentence as HTML: escaped, with Markdown `code` spans kept as <code>. */
export function inlineMarkdown(text: string): string {
  return text
    .split(/(`[^`]+`)/)
    .map((part) => (/^`[^`]+`$/.test(part) ? `<code>${escapeHtml(part.slice(1, -1))}</code>` : escapeHtml(part)))
    .join("");
}

