#!/usr/bin/env bash
# The HTML report as a browser renders it: with a known mutant selected (a -DRLC_MUTANTS=ON
# build), `rlc verify` writes a report with failing histories; headless Chromium opens it offline,
# dumps the DOM it built and takes a screenshot. The DOM must hold the timeline (lanes, a commit
# with its rebased actions) and the row diff, and the screenshot must show them: the timeline's
# header and the diff's lines have backgrounds used nowhere else in the page (cli/verify.cc), whose
# pixels are counted. Usage: report_screenshot_test.sh RLC_BINARY SCENARIOS_DIR
set -euo pipefail
rlc=$1
scenarios=$2
here=$(cd "$(dirname "$0")" && pwd)
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "chromium is not installed (scripts/install-deps.sh installs it)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The scenario files are read from a deep folder, as a CI runner's checkout is: a finding is
# named by its file's path, and a long path must wrap rather than widen the page (a short checkout
# path hid that once).
deep="$work/runner/work/checkouts/a-project-checked-out-at-a-long-path/of-many-folders/tests"
mkdir -p "$deep"
cp -r "$scenarios" "$deep/scenarios"
scenarios="$deep/scenarios"
RLC_MUTANT=case2-loser-dv-only "$rlc" verify --proofs case2 --out "$work/out" --scenarios "$scenarios" --explore-runs 200 \
  > "$work/verify.txt" 2>&1 && { echo "rlc verify found nothing with the mutant selected"; exit 1; }
report="$work/out/report.html"
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-dev-shm-usage
       --user-data-dir="$work/profile" --window-size=1400,2400)
"$browser" "${flags[@]}" --dump-dom "file://$report" > "$work/dom.html" 2> "$work/chromium.txt"
grep -q '<table class="timeline">' "$work/dom.html" || { echo "the rendered page has no timeline"; exit 1; }
grep -q 'starts: reads version' "$work/dom.html" || { echo "the timeline shows no read version"; exit 1; }
grep -q '<ul class="actions">' "$work/dom.html" || { echo "the timeline shows no rebased actions"; exit 1; }
grep -Eq '<span class="(add|del)">[+-] \(' "$work/dom.html" || { echo "the rendered page has no row diff"; exit 1; }
# report.md carries what the HTML carries that text can: the provenance, each failing history's
# lanes (one column per writer, its operation and flags), its row diff and its replay command.
md="$work/out/report.md"
grep -q "^rlcVersion [0-9].* · seed " "$md" || { echo "report.md names no version and seed"; exit 1; }
grep -q "^| step | .*flags: " "$md" || { echo "report.md has no lanes"; exit 1; }
grep -q "| starts: reads version " "$md" || { echo "report.md's lanes show no read version"; exit 1; }
grep -q '^```diff$' "$md" || { echo "report.md has no row diff"; exit 1; }
grep -Eq '^[+-] \(' "$md" || { echo "report.md's row diff is empty"; exit 1; }
grep -q "replay: \`rlc replay .*history.scenario\`" "$md" || { echo "report.md names no replay of a saved history"; exit 1; }
# The page fits its window, at the screenshot's width and at a narrow one: nothing (a timeline, a
# drawn cycle, a long path) makes the page itself scroll sideways; wide parts scroll inside their
# own box and long words wrap. Measured by the browser (page_fit_probe.js, injected into a copy of
# the report): the page's scroll width and the right edge of the widest element or text run that no
# scrolling box clips, against the window's width.
for width in 1400 800; do
  probe="$work/probe-$width.html"
  python3 -c 'import sys; page, script = open(sys.argv[1]).read(), open(sys.argv[2]).read()
assert "</body>" in page, "the report has no </body>"
sys.stdout.write(page.replace("</body>", "<script>" + script + "</script></body>"))' \
    "$report" "$here/page_fit_probe.js" > "$probe"
  "$browser" "${flags[@]/--window-size=1400,2400/--window-size=$width,2400}" --dump-dom "file://$probe" \
    > "$work/probe-$width.dom" 2>> "$work/chromium.txt"
  read -r scroll edge inner < <(grep -o 'data-fit="[0-9]* [0-9]* [0-9]*"' "$work/probe-$width.dom" |
    tr -d '"' | cut -d= -f2)
  [ -n "${inner:-}" ] || { echo "the page's width could not be measured at $width px"; exit 1; }
  widest=$(grep -o 'data-widest="[^"]*"' "$work/probe-$width.dom" | cut -d'"' -f2)
  [ "$scroll" -le "$inner" ] && [ "$edge" -le "$inner" ] ||
    { echo "at $width px the page is $scroll px wide (widest edge $edge px) in a $inner px window;" \
        "the widest: $widest"; exit 1; }
  echo "at $width px: page $scroll px, widest edge $edge px ($widest), window $inner px"
done
# The findings come first in the report: the first window holds a history's timeline and diff.
"$browser" "${flags[@]}" --screenshot="$work/shot.png" "file://$report" >> "$work/chromium.txt" 2>&1
[ -s "$work/shot.png" ] || { echo "chromium wrote no screenshot"; cat "$work/chromium.txt"; exit 1; }
python3 "$here/png_colors.py" "$work/shot.png" eef3fb e6ffec ffebe9 > "$work/colours.txt"
cat "$work/colours.txt"
read -r size < "$work/colours.txt"
[ "$size" = "1400x2400" ] || { echo "unexpected screenshot size $size"; exit 1; }
timeline=$(awk '$1 == "eef3fb" {print $2}' "$work/colours.txt")
added=$(awk '$1 == "e6ffec" {print $2}' "$work/colours.txt")
removed=$(awk '$1 == "ffebe9" {print $2}' "$work/colours.txt")
[ "$timeline" -gt 1000 ] || { echo "the screenshot shows no timeline header"; exit 1; }
[ $((added + removed)) -gt 500 ] || { echo "the screenshot shows no diff line"; exit 1; }
echo "the report renders: timeline $timeline px, diff $((added + removed)) px"
