# tests/report/lib.sh — shared by the warpnet-report tests: where the script
# is, a temporary directory, PNG and page checks.
REPORT="${top_builddir:-.}/tools/report/warpnet-report"
if [ ! -x "$REPORT" ]; then
    echo "SKIP: $REPORT not built (run make first)"; exit 77
fi
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
REPORT=$(limited "$REPORT")
if ! command -v "${GNUPLOT:-gnuplot}" >/dev/null 2>&1; then
    echo "SKIP: gnuplot not installed (apt-get install gnuplot-nox)"; exit 77
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/warpnet-report-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# is_png FILE: non-empty and starts with the 8-byte PNG signature.
is_png() {
    [ -s "$1" ] && [ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ]
}

# expect_plots DIR NAME...: each NAME.png is a PNG that report.md and
# report.html show; and report.md shows no PNG besides those named.
expect_plots() {
    d=$1
    shift
    for p in "$@"; do
        if is_png "$d/$p.png" && grep -q "]($p.png)" "$d/report.md" &&
            grep -q "src=\"$p.png\"" "$d/report.html"; then
            ok "$d: $p.png is a PNG shown by report.md and report.html"
        else
            bad "$d: $p.png missing, not a PNG, or not referenced by the report pages"
        fi
    done
    for p in $(sed -n 's/^!\[.*\](\(.*\)\.png)$/\1/p' "$d/report.md"); do
        case " $* " in
        *" $p "*) ;;
        *) bad "$d: report.md shows $p.png, which this input should not produce" ;;
        esac
    done
}

# has DIR TEXT WHAT: report.md contains TEXT (fixed string).
has() {
    if grep -qF -- "$2" "$1/report.md"; then ok "$3"; else bad "$3: report.md lacks '$2'"; fi
}
