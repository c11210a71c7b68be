# tests/arch/local.mk — the include arrows and the engine's seams of
# docs/architecture.md, no circle of includes or calls outside the engine,
# the tarball's manifest against the tracked files, and what make install
# gives a model of the user's own.
TESTS += tests/arch/test_arrows.sh tests/arch/test_catalog.sh tests/arch/test_seams.sh \
	tests/arch/test_circles.sh tests/arch/test_dist_manifest.sh tests/arch/test_installed_pc.sh
EXTRA_DIST += tests/arch/test_arrows.sh tests/arch/test_catalog.sh tests/arch/arrows.sh \
	tests/arch/test_seams.sh tests/arch/seams.sh tests/arch/lib.sh \
	tests/arch/test_circles.sh tests/arch/circles.sh tests/arch/test_dist_manifest.sh \
	tests/arch/test_installed_pc.sh
# What `make dist` would ship, one path a line, for test_dist_manifest.sh.
check_DATA += tests/arch/distfiles.list
CLEANFILES += tests/arch/distfiles.list
tests/arch/distfiles.list: Makefile
	$(AM_V_GEN)$(MKDIR_P) tests/arch && \
	for f in $(DISTFILES); do echo "$$f"; done > $@.tmp && mv -f $@.tmp $@
