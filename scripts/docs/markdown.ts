// Markdown to HTML for the pages written in Markdown (the guides, the benchmarks page), through
// marked's public API. Headings get GitHub's ids (github-slugger), so a link to a section works on
// GitHub and on the site alike; each link goes through the caller's resolver, which maps the
// repository's .md files to the site's pages and refuses what the site does not have.
import GithubSlugger from "github-slugger";
import { Marked, type Tokens } from "marked";
import { escapeHtml } from "./html.js";

export interface Heading {
  depth: number;
  /** The heading as plain text (code marks dropped), as GitHub slugs it. */
  text: string;
  id: string;
}

export interface RenderedMarkdown {
  /** The body, the first-level heading included. */
  html: string;
  /** The first-level heading as plain text; "" when there is none. */
  title: string;
  /** The first paragraph after the title, as inline HTML (a summary for lists of pages). */
  summary: string;
  headings: Heading[];
}

/** Given a link's href as written, the href the page gets; throws when the target has no page. */
export type LinkResolver = (href: string) => string;

/** Links through `resolveLink`; an image's source through `resolveImage` (the same kind of function). */
export function renderMarkdown(text: string, resolveLink: LinkResolver = (href) => href, resolveImage: LinkResolver = (href) => href): RenderedMarkdown {
  const slugger = new GithubSlugger();
  const headings: Heading[] = [];
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth }: Tokens.Heading) {
        const plain = this.parser.parseInline(tokens, this.parser.textRenderer);
        const id = slugger.slug(unescapeText(plain));
        headings.push({ depth, text: unescapeText(plain), id });
        return `<h${depth} id="${escapeHtml(id)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
    },
  });
  const tokens = marked.lexer(text);
  marked.walkTokens(tokens, (token) => {
    if (token.type === "link") (token as Tokens.Link).href = resolveLink((token as Tokens.Link).href);
    if (token.type === "image") (token as Tokens.Image).href = resolveImage((token as Tokens.Image).href);
  });
  const html = marked.parser(tokens);
  const titleAt = tokens.findIndex((token) => token.type === "heading" && token.depth === 1);
  const firstParagraph = tokens.slice(titleAt + 1).find((token): token is Tokens.Paragraph => token.type === "paragraph");
  return {
    html,
    title: headings.find((heading) => heading.depth === 1)?.text ?? "",
    summary: firstParagraph ? marked.parser([firstParagraph]).trim().replace(/^<p>|<\/p>$/g, "") : "",
    headings,
  };
}

/** marked's text renderer leaves entities in; a slug and a title want the characters. */
function unescapeText(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}
