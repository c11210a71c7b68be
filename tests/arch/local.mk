# tests/arch/local.mk — the include arrows of docs/architecture.md.
TESTS += tests/arch/test_arrows.sh tests/arch/test_catalog.sh
EXTRA_DIST += tests/arch/test_arrows.sh tests/arch/test_catalog.sh tests/arch/arrows.sh
