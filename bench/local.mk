# bench/local.mk — benchmarks ship with the sources; they are never run by make check.
EXTRA_DIST += bench/phold.sh
