#!/bin/bash
# test-design-doc.sh — the project documents itself: docs/design.md exists,
# every design section the code and tests cite (the file name, a comma, the
# section in quotes) is a heading of it, and nothing cites a design file
# outside the repository.  Prints TAP, plan first.
set -u
SRC="${THREADLAB_SRCDIR:-.}"
. "$(dirname "$0")/../lib/tap-lib.sh"
tmp=$(mktemp -d)
plan 4

doc="$SRC/docs/design.md"
# The cited sections, one "file: section" a line: a citation may break
# across comment lines ("docs/design.md,\n * "Words"").
citations() { # citations DIR
	(cd "$1" && find . \( -name build -o -name 'build-*' -o -name .git -o -name docs \) -prune -o \
		-type f \( -name '*.[ch]' -o -name '*.sh' -o -name '*.am' -o -name '*.ac' -o -name '*.1' \) \
		-print | sort | sed 's|^\./||' | tr '\n' '\0' |
		xargs -0 -r perl -0777 -ne '
			s/\n/ /g; s/\s\*\s/ /g; s/#\s/ /g;
			print "$ARGV: $1\n" while m{docs/design\.md,\s*"([^"]*)"}g')
}
# Whether heading text $2 is a section of design document $1.
has_section() { grep -Eq "^#{2,4} $(printf '%s' "$2" | sed 's/[][\.*^$/]/\\&/g')\$" "$1"; }

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
# exist is found.
mkdir -p "$tmp/src/monitor"
printf '/* as in (docs/design.md,\n * "No such section") */\n' >"$tmp/src/monitor/planted.h"
printf '## Layers\n' >"$tmp/doc.md"
if [ "$(check "$tmp/src" "$tmp/doc.md")" = "monitor/planted.h: No such section" ]; then
	ok "a planted citation of a missing section is caught"
else
	notok "a planted citation of a missing section is caught" "$(check "$tmp/src" "$tmp/doc.md")"
fi
