#!/bin/sh
# tests/fuzz/samples.sh TARGET SAMPLES CORPUS — adds the sample traces (when
# SAMPLES, i.e. ../shared/traces, exists) to a fuzz target's fresh corpus:
# bigsim gets the Jacobi sample as one bundle (files joined by the separator
# of fuzz_trace.c), native gets it converted to the text and binary forms by
# the warpnet-trace of this build tree (when built). Called by `make fuzz`.
t=$1 samples=$2 corpus=$3
jacobi=$samples/bigsim-jacobi2d-32
[ -d "$jacobi" ] || exit 0
case $t in
bigsim)
    {
        cat "$jacobi/bgTrace"
        i=0
        while [ -f "$jacobi/bgTrace$i" ]; do
            printf '\n-file-\n'
            cat "$jacobi/bgTrace$i"
            i=$((i + 1))
        done
    } >"$corpus/sample-jacobi2d-32"
    ;;
native)
    tool=tools/trace/warpnet-trace
    if [ -x "$tool" ]; then
        "$tool" convert --text "$jacobi" "$corpus/sample-jacobi.txt" >/dev/null &&
            "$tool" convert --binary "$jacobi" "$corpus/sample-jacobi.bin" >/dev/null ||
            echo "samples.sh: converting $jacobi failed" >&2
    fi
    ;;
esac
exit 0
