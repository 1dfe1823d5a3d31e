#!/bin/bash
# test-design-doc.sh — the project documents itself: docs/design.md exists,
# every design section the code, tests and docs cite is a heading of it, and
# nothing cites a design file outside the repository.  Prints TAP, plan first.
set -u
. "$(dirname "$0")/../lib/tap-lib.sh"
plan 5

doc="$SRC/docs/design.md"
# The cited sections, one "file: section" a line.  A citation is the file
# name, then a comma or a space, then the section in double or single quotes;
# it may break across comment lines ("docs/design.md,\n * "Words"").  A
# Markdown link cites a section by its anchor (design.md, a hash, the anchor),
# printed as "file: #anchor".
citations() { # citations DIR
	(cd "$1" && find . \( -name build -o -name 'build-*' -o -name .git \) -prune -o \
		-type f \( -name '*.[ch]' -o -name '*.sh' -o -name '*.am' -o -name '*.ac' -o -name '*.1' \
		-o -name '*.md' \) -print | sort | sed 's|^\./||' | tr '\n' '\0' |
		xargs -0 -r perl -0777 -ne '
			s/\n/ /g; s/\s\*\s/ /g; s/#\s/ /g;
			print "$ARGV: ", $1 // $2, "\n"
				while m{docs/design\.md(?:,\s*|\s+)(?:"([^"]*)"|\x27([^\x27]*)\x27)}g;
			print "$ARGV: #$1\n" while m{design\.md#([\w-]+)}g')
}
# Whether heading text $2 (or "#anchor", GitHub's: lower case, punctuation
# dropped, spaces as hyphens) is a section of design document $1.
has_section() {
	case $2 in
	'#'*) grep -E '^#{2,4} ' "$1" | perl -ne 's/^#+ //; chomp; $_ = lc; s/[^\w\s-]//g; s/\s/-/g;
		print "#$_\n"' | grep -qxF -- "$2" ;;
	*) grep -Eq "^#{2,4} $(printf '%s' "$2" | sed 's/[][\.*^$/]/\\&/g')\$" "$1" ;;
	esac
}

check() { # check SRCDIR DOC: prints the citations that name no section
	citations "$1" | while IFS= read -r c; do
		has_section "$2" "${c#*: }" || echo "$c"
	done
}

if [ -f "$doc" ] && grep -q '^## Layers$' "$doc"; then
	ok "docs/design.md exists and has its sections"
else
	notok "docs/design.md exists and has its sections" "no $doc, or no ## Layers in it"
fi
count=$(citations "$SRC" | wc -l)
bad=$(check "$SRC" "$doc")
if [ "$count" -gt 0 ] && [ -z "$bad" ]; then
	ok "every cited design section exists ($count citations)"
else
	notok "every cited design section exists ($count citations)" "$bad"
fi
outside=$(grep -rln --include='*.[ch]' --include='*.sh' --include='*.am' --include='*.ac' \
	-e 'DESIGN\.md' -e 'shared/design' "$SRC"/collectors "$SRC"/monitor "$SRC"/output \
	"$SRC"/tui "$SRC"/workload "$SRC"/common "$SRC"/tests "$SRC"/bench "$SRC"/Makefile.am \
	"$SRC"/configure.ac 2>/dev/null | grep -v 'test-design-doc\.sh$')
if [ -z "$outside" ]; then
	ok "nothing cites a design file outside the repository"
else
	notok "nothing cites a design file outside the repository" "$outside"
fi
# The check itself can fail: a planted citation of a section that does not
# exist is found, in each form a citation takes.
mkdir -p "$tmp/src/monitor" "$tmp/src/tests" "$tmp/src/docs"
printf '/* as in (docs/design.md,\n * "No such section") */\n' >"$tmp/src/monitor/planted.h"
printf '# RANKING (docs/design.md, \047Single quoted\047), then\n' >"$tmp/src/tests/planted.sh"
printf ' * (monitor/x.h, docs/design.md \042No comma\042): short\n' >"$tmp/src/tests/planted.c"
printf 'see [it](design.md\043no-such-anchor) and [that](design.md\043layers)\n' >"$tmp/src/docs/planted.md"
printf '## Layers\n' >"$tmp/doc.md"
want='docs/planted.md: #no-such-anchor
monitor/planted.h: No such section
tests/planted.c: No comma
tests/planted.sh: Single quoted'
if [ "$(check "$tmp/src" "$tmp/doc.md")" = "$want" ]; then
	ok "a planted citation of a missing section is caught in each form"
else
	notok "a planted citation of a missing section is caught in each form" "$(check "$tmp/src" "$tmp/doc.md")"
fi
# ... and a citation of a section that exists passes in each form.
printf '## Layers\n## No such section\n## Single quoted\n## No comma\n## No such: anchor\n' >"$tmp/doc.md"
if [ -z "$(check "$tmp/src" "$tmp/doc.md")" ] && [ "$(citations "$tmp/src" | wc -l)" -eq 5 ]; then
	ok "planted citations of sections that exist pass (5 found)"
else
	notok "planted citations of sections that exist pass (5 found)" "$(check "$tmp/src" "$tmp/doc.md")" \
		"$(citations "$tmp/src")"
fi
