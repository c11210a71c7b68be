#!/bin/sh
# test_catalog.sh — the catalogue is generated from the model folders: every
# ops structure a model's public header exports is registered by its own
# folder's local.mk (CATALOG_*), lands in the built catalog_list.h, and
# catalog.c names no model, so adding one needs only its folder plus its
# `include` line in models/local.mk.
set -u
S="${top_srcdir:-.}"
B="${top_builddir:-_build}"
fail=0
list="$B/models/catalog/catalog_list.h"
[ -f "$list" ] || { echo "FAIL $list was not generated"; exit 1; }
for h in "$S"/models/*/*.h; do
    case "$h" in */net/*|*_impl.h) continue ;; esac
    dir=$(dirname "$h")
    for ops in $(sed -n 's/^extern const net_\(topology\|network\|workload\)_ops \([a-z0-9_]*\);.*/\2/p' "$h"); do
        if ! grep -q "^CATALOG_[A-Z]* += .*\b$ops\b" "$dir/local.mk"; then
            echo "FAIL $ops ($h) is not registered in $dir/local.mk"; fail=1
        elif ! grep -q "^CATALOG_[A-Z]*($ops)\$" "$list"; then
            echo "FAIL $ops is not in the generated $list"; fail=1
        else
            echo "ok   $ops registered by $(basename "$dir")/local.mk"
        fi
    done
done
if grep -n '#include "[a-z]*/' "$S/models/catalog/catalog.c" | grep -v '"catalog/\|"net/'; then
    echo "FAIL catalog.c includes a model header"; fail=1
fi
n=$(grep -c . "$list")
[ "$n" -ge 9 ] || { echo "FAIL only $n entries in $list"; fail=1; }
exit $fail
