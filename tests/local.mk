# tests/local.mk — make check: Criterion unit tests and integration scripts,
# one subdirectory per area.
if !HAVE_CRITERION
TESTS += tests/criterion_missing.sh
endif
EXTRA_DIST += tests/criterion_missing.sh tests/limit.sh
# limit.sh keeps its wrappers in the build tree; make distcheck wants a
# clean tree after distclean.
clean-local: clean-limited
clean-limited:
	-rm -rf tests/.limited
.PHONY: clean-limited
include tests/engine/local.mk
include tests/rng/local.mk
include tests/net/local.mk
include tests/convert/local.mk
include tests/torus/local.mk
include tests/fattree/local.mk
include tests/slimfly/local.mk
include tests/dragonfly/local.mk
include tests/hyperx/local.mk
include tests/graph/local.mk
include tests/failures/local.mk
include tests/dragonflyplus/local.mk
include tests/simple/local.mk
include tests/optical/local.mk
include tests/replay/local.mk
include tests/report/local.mk
include tests/fuzz/local.mk
include tests/golden/local.mk
include tests/arch/local.mk
include tests/checkpoint/local.mk
include tests/bench/local.mk
include tests/docs/local.mk
