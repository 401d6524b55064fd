// A small, safe Markdown renderer for answers (no network, no dependencies).
// Safety: the text is HTML-escaped first; only the tags built here are ever produced, and links
// are kept only for http(s), relative paths and in-page anchors.
"use strict";

const MD_ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
function escapeHtml(text) { return String(text).replace(/[&<>"']/g, (c) => MD_ESCAPES[c]); }

// Answer section labels the assistant writes at the start of a line ("Scope: ...").
const MD_LABELS = /^(Scope|Assumptions|Evidence|Confidence|Next|Caveats?|Note|Findings?|Decisive test):/;

function mdInline(escaped) {
  const codes = [];
  let s = escaped.replace(/`([^`]+)`/g, (_, code) => { codes.push(code); return `\u0000${codes.length - 1}\u0000`; });
  s = s.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (whole, label, url) => {
    const safe = /^(https?:\/\/|\/(?!\/)|#)/.test(url) ? url : null;
    return safe ? `<a href="${safe}"${safe.startsWith("http") ? ' rel="noopener" target="_blank"' : ""}>${label}</a>` : whole;
  });
  s = s.replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>").replace(/(^|[\s(])\*([^*\s][^*]*)\*(?=$|[\s.,;:)])/g, "$1<em>$2</em>");
  // artifact ids in the text link to their card in the artifacts panel
  s = s.replace(/\b(artifact_[a-z]+_[0-9a-f]{6,})\b/g, '<a href="#art-$1" class="art-ref">$1</a>');
  return s.replace(/\u0000(\d+)\u0000/g, (_, i) => `<code>${codes[Number(i)]}</code>`);
}

function mdCells(line) {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
}

function mdTable(lines) {
  const head = mdCells(lines[0]);
  const body = lines.slice(2).map(mdCells);
  const numeric = head.map((_, i) => body.length > 0 && body.every((r) => /^[-+]?[\d.,]+\s*\S{0,6}$/.test(r[i] || "")));
  const cell = (tag, text, i) => `<${tag}${numeric[i] ? ' class="num"' : ""}>${mdInline(text)}</${tag}>`;
  return `<div class="table-wrap"><table><thead><tr>${head.map((h, i) => cell("th", h, i)).join("")}</tr></thead><tbody>`
    + body.map((r) => `<tr>${head.map((_, i) => cell("td", r[i] || "", i)).join("")}</tr>`).join("") + "</tbody></table></div>";
}

/** Markdown -> HTML string: headings, paragraphs, lists, tables, fenced code, bold/italic/code/links. */
function renderMarkdown(text) {
  const lines = escapeHtml(text || "").replace(/\r\n?/g, "\n").split("\n");
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (/^```/.test(line)) {
      const code = [];
      for (i++; i < lines.length && !/^```/.test(lines[i]); i++) code.push(lines[i]);
      out.push(`<pre><code>${code.join("\n")}</code></pre>`); i++; continue;
    }
    if (/^\s*\|.*\|\s*$/.test(line) && i + 1 < lines.length && /^\s*\|?\s*:?-{2,}/.test(lines[i + 1])) {
      const rows = [];
      while (i < lines.length && /^\s*\|.*\|\s*$/.test(lines[i])) rows.push(lines[i++]);
      out.push(mdTable(rows)); continue;
    }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) { const level = Math.min(heading[1].length + 2, 6); out.push(`<h${level}>${mdInline(heading[2])}</h${level}>`); i++; continue; }
    if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items = [];
      while (i < lines.length && /^\s*([-*+]|\d+[.)])\s+/.test(lines[i])) items.push(lines[i++].replace(/^\s*([-*+]|\d+[.)])\s+/, ""));
      const tag = ordered ? "ol" : "ul";
      out.push(`<${tag}>${items.map((it) => `<li>${mdInline(it)}</li>`).join("")}</${tag}>`); continue;
    }
    if (!line.trim()) { i++; continue; }
    const para = [];
    while (i < lines.length && lines[i].trim() && !/^(```|#{1,4}\s|\s*([-*+]|\d+[.)])\s+|\s*\|.*\|\s*$)/.test(lines[i])) para.push(lines[i++]);
    if (!para.length) para.push(lines[i++]);
    out.push(`<p>${para.map((p) => mdInline(p).replace(MD_LABELS, "<strong>$1:</strong>")).join("<br>")}</p>`);
  }
  return out.join("\n");
}

if (typeof module !== "undefined") module.exports = { renderMarkdown, escapeHtml };
