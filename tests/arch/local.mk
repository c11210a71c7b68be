# tests/arch/local.mk — the include arrows and the engine's seams of docs/architecture.md.
TESTS += tests/arch/test_arrows.sh tests/arch/test_catalog.sh tests/arch/test_seams.sh
EXTRA_DIST += tests/arch/test_arrows.sh tests/arch/test_catalog.sh tests/arch/arrows.sh \
	tests/arch/test_seams.sh tests/arch/seams.sh tests/arch/lib.sh
