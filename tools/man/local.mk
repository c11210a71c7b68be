# tools/man/local.mk — warpnet(1) and warpnet-trace(1), generated from the
# programs' --help (their option tables) when they are built.
nodist_man_MANS = tools/man/warpnet.1 tools/man/warpnet-trace.1
EXTRA_DIST += tools/man/mkman.sh
CLEANFILES += $(nodist_man_MANS)
# Under --enable-sanitizers MPICH's own allocations would count as leaks of
# --help (make check suppresses them with tests/lsan.supp); a man page is not
# a leak test.
MKMAN_ENV = ASAN_OPTIONS="detect_leaks=0:$${ASAN_OPTIONS-}" WARPNET_VERSION='$(VERSION)'

tools/man/warpnet.1: tools/warpnet/warpnet$(EXEEXT) $(srcdir)/tools/man/mkman.sh
	@$(MKDIR_P) tools/man
	$(AM_V_GEN)$(MKMAN_ENV) $(SHELL) $(srcdir)/tools/man/mkman.sh tools/warpnet/warpnet \
	  warpnet 'simulate HPC interconnects and replay application traces on a Time Warp engine' > $@.tmp && mv $@.tmp $@
tools/man/warpnet-trace.1: tools/trace/warpnet-trace$(EXEEXT) $(srcdir)/tools/man/mkman.sh
	@$(MKDIR_P) tools/man
	$(AM_V_GEN)$(MKMAN_ENV) $(SHELL) $(srcdir)/tools/man/mkman.sh tools/trace/warpnet-trace \
	  warpnet-trace 'inspect, convert and generate replay traces for warpnet' > $@.tmp && mv $@.tmp $@
