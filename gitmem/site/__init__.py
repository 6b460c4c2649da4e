"""The memory site: a static, self-contained view of the memory at one commit (`gitmem site`).

An entry is reviewed as Markdown source, and a reviewer may miss what a browser does with it;
a file committed past the hooks (a server without the gate, an older gitmem) says what it
likes. So the site trusts no text an entry, a candidate branch, refused.md or a file name
holds, and keeps these invariants whatever that text is:

- No entry's text (title, applies_when, tags, files, body, a front-matter value of any YAML
  type, a file or folder name, an id, a branch name) runs script, loads anything from another
  origin, takes the reader elsewhere without a click on a visible link, or leaves the element
  it is written in: every value is escaped, quotes included, or rendered by
  gitmem.site.prose with raw HTML off; an id names a page only as a slug, else a digest
  (pages.page_name); a status is a class only when the style sheet knows it
  (lineage.status_class); a character a browser hides or lets reorder the text around it
  shows as its escape (build._encoded); an entry's headings rank below the page's own
  sections (prose.render).
- A link an entry gives is shown for what it is: only `http:` and `https:` addresses that
  name a host, `mailto:` and `#fragment` stay links, a repository path becomes the forge's
  address of the file; anything else (`javascript:`, `data:`, `vbscript:`, however spelled:
  case, white space, entities, control characters, percent-escapes) becomes text, as does an
  address a browser reads otherwise than it was judged (gitmem.site.prose). A link whose
  words show nothing shows its address. An image is never loaded: it becomes a link to its
  address, or its alt text.
- Every page states a Content-Security-Policy that lets scripts and styles come only from the
  site's own files (no page holds an inline script or style), loads nothing from another
  origin and submits no form (pages.CSP).
- The entry list's filters and search treat what the reader types, or the address holds, as
  text: the script sets no HTML, only textContent, and a filter takes a value only when it is
  one of its options (assets/site.js).
- The output folder is written without following a link out of it and without deleting
  anything outside it but the staging folders killed builds left beside it (named as only a
  build names one): a link at --out, or on the way out of the repository, is refused; only
  the files the old site's marker lists and the folder holds are replaced or removed, a link
  among them as a link (gitmem.site.build).
- The same commit gives the same bytes: nothing comes from the clock, the machine, the order
  files were read in or the process's string hashing; aside from the candidate branches
  (left out by --no-candidates), the repository's web address, the name the commit was
  asked by, and main's allowed.md, which says which of the commit's entries holding a
  secret may be shown.
"""
