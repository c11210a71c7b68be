# tools/man/local.mk — warpnet(1) and warpnet-trace(1), generated from the
# programs' --help (their option tables) when they are built.
nodist_man_MANS = tools/man/warpnet.1 tools/man/warpnet-trace.1
EXTRA_DIST += tools/man/mkman.sh
CLEANFILES += $(nodist_man_MANS)
# The programs run under the tests' sanitizer settings: in a sanitizer build
# MPI_Init's leaks would otherwise fail `--help` and the build.
MAN_RUN_ENV = ASAN_OPTIONS="fast_unwind_on_malloc=0:$${ASAN_OPTIONS-}" \
	LSAN_OPTIONS="suppressions=$(abs_top_srcdir)/tests/lsan.supp:print_suppressions=0"

tools/man/warpnet.1: tools/warpnet/warpnet$(EXEEXT) $(srcdir)/tools/man/mkman.sh
	@$(MKDIR_P) tools/man
	$(AM_V_GEN)$(MAN_RUN_ENV) WARPNET_VERSION='$(VERSION)' $(SHELL) $(srcdir)/tools/man/mkman.sh tools/warpnet/warpnet \
	  warpnet 'simulate HPC interconnects and replay application traces on a Time Warp engine' > $@.tmp && mv $@.tmp $@
tools/man/warpnet-trace.1: tools/trace/warpnet-trace$(EXEEXT) $(srcdir)/tools/man/mkman.sh
	@$(MKDIR_P) tools/man
	$(AM_V_GEN)$(MAN_RUN_ENV) WARPNET_VERSION='$(VERSION)' $(SHELL) $(srcdir)/tools/man/mkman.sh tools/trace/warpnet-trace \
	  warpnet-trace 'inspect, convert and generate replay traces for warpnet' > $@.tmp && mv $@.tmp $@
