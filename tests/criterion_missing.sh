#!/bin/sh
# Registered only when configure did not find Criterion: make check must not
# pass quietly with the unit tests missing.
echo "Criterion was not found by configure, so the unit tests were not built:"
echo "install libcriterion-dev (Debian) and re-run ./configure"
exit 1
