# tests/arch/local.mk — the include arrows and the engine's seams of
# docs/architecture.md, and no circle of includes or calls outside the engine.
TESTS += tests/arch/test_arrows.sh tests/arch/test_catalog.sh tests/arch/test_seams.sh \
	tests/arch/test_circles.sh
EXTRA_DIST += tests/arch/test_arrows.sh tests/arch/test_catalog.sh tests/arch/arrows.sh \
	tests/arch/test_seams.sh tests/arch/seams.sh tests/arch/lib.sh \
	tests/arch/test_circles.sh tests/arch/circles.sh
