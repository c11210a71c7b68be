# tools/report/local.mk — warpnet-report: renders a --out directory into plots
# and report.md/report.html (a shell + gnuplot script, generated so that it
# carries the package version and sits in the build tree next to warpnet).
bin_SCRIPTS += tools/report/warpnet-report
CLEANFILES += tools/report/warpnet-report
EXTRA_DIST += tools/report/warpnet-report.in docs/report.md
tools/report/warpnet-report: $(srcdir)/tools/report/warpnet-report.in Makefile
	$(AM_V_GEN)$(MKDIR_P) tools/report && \
	sed -e 's|@PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g' $(srcdir)/tools/report/warpnet-report.in >$@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@
