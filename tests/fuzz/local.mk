# tests/fuzz/local.mk — `make fuzz [FUZZ_SECONDS=N] [FUZZ_TARGETS="ini goal"]`:
# builds each libFuzzer harness with clang (ASan + UBSan) straight from the
# parser sources, and runs it for FUZZ_SECONDS on a fresh copy of its seed
# corpus in the build tree. Fails when clang's libFuzzer is missing (saying
# what to install) or when any harness finds a crash, leak or sanitizer
# report; the input is left as tests/fuzz/crash-TARGET-* in the build tree.
# Never part of `make check`: the inputs fuzzing found live on as regression
# tests in tests/fuzz/regress/ (test_fuzz_regress.sh).
FUZZ_CC = clang
FUZZ_SECONDS = 60
FUZZ_TARGETS = ini options bigsim goal native dimemas otf2map pcap graph routes placement
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
FUZZ_RUN_FLAGS = -rss_limit_mb=2048 -timeout=10 -print_final_stats=1
FUZZ_REPLAY_SRC = $(srcdir)/models/replay/error.c $(srcdir)/config/xalloc.c \
	$(srcdir)/config/fatal.c $(srcdir)/config/errline.c \
	$(srcdir)/models/replay/taskgraph.c $(srcdir)/models/replay/readers/source.c \
	$(srcdir)/models/replay/readers/keymap.c $(srcdir)/models/replay/readers/mpimap.c \
	$(srcdir)/models/replay/readers/bigsim.c $(srcdir)/models/replay/readers/goal.c \
	$(srcdir)/models/replay/readers/dimemas.c $(srcdir)/models/replay/readers/dimemas_parse.c \
	$(srcdir)/models/replay/readers/native.c $(srcdir)/models/replay/readers/gen.c \
	$(srcdir)/models/replay/readers/gen_mapreduce.c \
	$(srcdir)/models/replay/readers/otf2map.c $(srcdir)/models/replay/readers/readers.c \
	$(srcdir)/models/replay/collectives/coll.c $(srcdir)/models/replay/collectives/coll_cfg.c \
	$(srcdir)/config/cfg_table.c $(srcdir)/config/units.c $(srcdir)/config/suggest.c
# The readers' table of the harnesses: every reader but OTF2 (no libotf2 here).
FUZZ_READERS = replay_reader_gen replay_reader_goal replay_reader_dimemas replay_reader_bigsim \
	replay_reader_native
FUZZ_INI_SRC = $(srcdir)/config/ini.c $(srcdir)/config/keys.c $(srcdir)/config/units.c $(srcdir)/config/xalloc.c $(srcdir)/config/hash.c \
	$(srcdir)/config/suggest.c

# Per target: sources, extra flags, run flags and seed directories.
fuzz_ini_src = $(srcdir)/tests/fuzz/fuzz_ini.c $(FUZZ_INI_SRC) $(srcdir)/config/fatal.c \
	$(srcdir)/config/errline.c
fuzz_ini_run = -max_len=4096
fuzz_ini_seeds = $(srcdir)/examples/configs
fuzz_options_src = $(srcdir)/tests/fuzz/fuzz_options.c $(srcdir)/engine/options.c \
	$(srcdir)/config/errline.c $(srcdir)/config/cfg_table.c $(FUZZ_INI_SRC)
fuzz_options_flags = -I. -I$(srcdir)/config -I$(srcdir)/engine -I$(srcdir)/rng `$(FUZZ_MPI_INCLUDES)`
fuzz_options_run = -max_len=2048
fuzz_options_seeds = $(srcdir)/tests/fuzz/seeds/options
fuzz_trace_flags = -I$(srcdir)/models -Itests/fuzz
fuzz_bigsim_src = $(srcdir)/tests/fuzz/fuzz_trace.c $(FUZZ_REPLAY_SRC)
fuzz_bigsim_flags = $(fuzz_trace_flags) -DFUZZ_FORMAT=bigsim
fuzz_bigsim_run = -max_len=16384
fuzz_bigsim_seeds = $(srcdir)/tests/fuzz/seeds/bigsim
fuzz_goal_src = $(fuzz_bigsim_src)
fuzz_goal_flags = $(fuzz_trace_flags) -DFUZZ_FORMAT=goal
fuzz_goal_run = -max_len=4096
fuzz_goal_seeds = $(srcdir)/tests/fuzz/seeds/goal
fuzz_native_src = $(fuzz_bigsim_src)
fuzz_native_flags = $(fuzz_trace_flags) -DFUZZ_FORMAT=native
fuzz_native_run = -max_len=8192
fuzz_native_seeds = $(srcdir)/tests/fuzz/seeds/native
fuzz_dimemas_src = $(fuzz_bigsim_src)
fuzz_dimemas_flags = $(fuzz_trace_flags) -DFUZZ_FORMAT=dimemas
fuzz_dimemas_run = -max_len=8192
fuzz_dimemas_seeds = $(srcdir)/tests/fuzz/seeds/dimemas
fuzz_otf2map_src = $(srcdir)/tests/fuzz/fuzz_otf2map.c $(FUZZ_REPLAY_SRC)
fuzz_otf2map_flags = $(fuzz_trace_flags)
fuzz_otf2map_run = -max_len=4096
fuzz_otf2map_seeds = $(srcdir)/tests/fuzz/seeds/otf2map
# The network file readers stop through warp_fatal: fuzz_stop.c releases
# what a reader held when it stops, seeing its calls through the linker.
FUZZ_STOP_WRAP = -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=fopen,--wrap=fclose,--wrap=getline
FUZZ_STOP_SRC = $(srcdir)/tests/fuzz/fuzz_stop.c $(srcdir)/config/xalloc.c $(srcdir)/config/fatal.c \
	$(srcdir)/config/errline.c
fuzz_stop_flags = -I$(srcdir)/models -I$(srcdir)/rng $(FUZZ_STOP_WRAP)
FUZZ_GRAPH_SRC = $(srcdir)/models/graph/graph_read.c $(srcdir)/config/units.c $(FUZZ_STOP_SRC)
fuzz_graph_src = $(srcdir)/tests/fuzz/fuzz_graph.c $(FUZZ_GRAPH_SRC)
fuzz_graph_run = -max_len=4096
fuzz_graph_seeds = $(srcdir)/tests/fuzz/seeds/graph
fuzz_routes_src = $(srcdir)/tests/fuzz/fuzz_routes.c $(srcdir)/models/graph/graph_routes.c $(FUZZ_GRAPH_SRC)
fuzz_routes_run = -max_len=4096
fuzz_routes_seeds = $(srcdir)/tests/fuzz/seeds/routes
fuzz_placement_src = $(srcdir)/tests/fuzz/fuzz_placement.c $(srcdir)/models/net/partition_parse.c $(FUZZ_STOP_SRC)
fuzz_placement_run = -max_len=2048
fuzz_placement_seeds = $(srcdir)/tests/fuzz/seeds/placement
if HAVE_CHAKRA
FUZZ_TARGETS += chakra
endif
# The Chakra reader's framing and mapping, with the schema protoc-c compiled
# into the build tree and the system's protobuf-c (not instrumented).
fuzz_chakra_src = $(srcdir)/tests/fuzz/fuzz_chakra.c $(srcdir)/models/replay/readers/chakra.c \
	$(srcdir)/models/replay/readers/chakra_map.c models/replay/readers/et_def.pb-c.c $(FUZZ_REPLAY_SRC) \
	$(PROTOBUF_C_LIBS)
fuzz_chakra_flags = $(fuzz_trace_flags) -I. -Imodels/replay/readers
fuzz_chakra_run = -max_len=8192
fuzz_chakra_seeds = $(srcdir)/tests/fuzz/seeds/chakra
fuzz_pcap_src = $(srcdir)/tests/fuzz/fuzz_pcap.c $(FUZZ_REPLAY_SRC) $(srcdir)/models/replay/readers/pcap_msgs.c
fuzz_pcap_flags = $(fuzz_trace_flags)
fuzz_pcap_run = -max_len=20000
fuzz_pcap_seeds = $(srcdir)/tests/fuzz/seeds/pcap

# mpi.h for options.c (internal.h): the -I flags of the MPI compiler wrapper.
FUZZ_MPI_INCLUDES = $(MPICC) -show 2>/dev/null | tr ' ' '\n' | grep '^-I'
# The sample traces (as the replay tests find them): the BigSim sample as one
# bundle; its size is cut to max_len when libFuzzer loads it.
FUZZ_SAMPLES = $(abs_top_srcdir)/../shared/traces

fuzz:
	@$(MKDIR_P) tests/fuzz; if ! printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }\n' | \
	    $(FUZZ_CC) -x c -fsanitize=fuzzer,address,undefined -o tests/fuzz/probe - 2>/dev/null; then \
	  echo "make fuzz: '$(FUZZ_CC) -fsanitize=fuzzer' does not work: install clang and its"; \
	  echo "  runtime (Debian: apt-get install clang libclang-rt-14-dev; check with"; \
	  echo "  dpkg -S libclang_rt.fuzzer), or set FUZZ_CC=/path/to/clang"; exit 2; \
	fi; rm -f tests/fuzz/probe
	@for o in $(FUZZ_READERS); do echo "REPLAY_READER($$o)"; done > tests/fuzz/reader_list.h
	@fail=0; for t in $(FUZZ_TARGETS); do \
	  case $$t in \
	    ini) src="$(fuzz_ini_src)"; flags=""; run="$(fuzz_ini_run)"; seeds="$(fuzz_ini_seeds)";; \
	    options) src="$(fuzz_options_src)"; flags="$(fuzz_options_flags)"; run="$(fuzz_options_run)"; seeds="$(fuzz_options_seeds)";; \
	    bigsim) src="$(fuzz_bigsim_src)"; flags="$(fuzz_bigsim_flags)"; run="$(fuzz_bigsim_run)"; seeds="$(fuzz_bigsim_seeds)";; \
	    goal) src="$(fuzz_goal_src)"; flags="$(fuzz_goal_flags)"; run="$(fuzz_goal_run)"; seeds="$(fuzz_goal_seeds)";; \
	    native) src="$(fuzz_native_src)"; flags="$(fuzz_native_flags)"; run="$(fuzz_native_run)"; seeds="$(fuzz_native_seeds)";; \
	    dimemas) src="$(fuzz_dimemas_src)"; flags="$(fuzz_dimemas_flags)"; run="$(fuzz_dimemas_run)"; seeds="$(fuzz_dimemas_seeds)";; \
	    otf2map) src="$(fuzz_otf2map_src)"; flags="$(fuzz_otf2map_flags)"; run="$(fuzz_otf2map_run)"; seeds="$(fuzz_otf2map_seeds)";; \
	    chakra) src="$(fuzz_chakra_src)"; flags="$(fuzz_chakra_flags)"; run="$(fuzz_chakra_run)"; seeds="$(fuzz_chakra_seeds)";; \
	    pcap) src="$(fuzz_pcap_src)"; flags="$(fuzz_pcap_flags)"; run="$(fuzz_pcap_run)"; seeds="$(fuzz_pcap_seeds)";; \
	    graph) src="$(fuzz_graph_src)"; flags="$(fuzz_stop_flags)"; run="$(fuzz_graph_run)"; seeds="$(fuzz_graph_seeds)";; \
	    routes) src="$(fuzz_routes_src)"; flags="$(fuzz_stop_flags)"; run="$(fuzz_routes_run)"; seeds="$(fuzz_routes_seeds)";; \
	    placement) src="$(fuzz_placement_src)"; flags="$(fuzz_stop_flags)"; run="$(fuzz_placement_run)"; seeds="$(fuzz_placement_seeds)";; \
	    *) echo "make fuzz: unknown target '$$t' (known: $(FUZZ_TARGETS))"; exit 2;; \
	  esac; \
	  bin=tests/fuzz/fuzz-$$t; corpus=tests/fuzz/corpus-$$t; \
	  echo "== fuzz $$t: build"; \
	  $(FUZZ_CC) $(FUZZ_CFLAGS) -I$(srcdir)/config -I$(srcdir)/engine $$flags $$src -lm -o $$bin || { fail=1; continue; }; \
	  rm -rf $$corpus; mkdir -p $$corpus; \
	  for d in $$seeds; do cp $$d/* $$corpus/ 2>/dev/null; done; \
	  $(SHELL) $(srcdir)/tests/fuzz/samples.sh $$t '$(FUZZ_SAMPLES)' $$corpus; \
	  echo "== fuzz $$t: $(FUZZ_SECONDS) s on $$(ls $$corpus | wc -l) seeds"; \
	  if ! ./$$bin $(FUZZ_RUN_FLAGS) $$run -max_total_time=$(FUZZ_SECONDS) \
	       -artifact_prefix=tests/fuzz/crash-$$t- $$corpus > tests/fuzz/fuzz-$$t.log 2>&1; then \
	    tail -n 40 tests/fuzz/fuzz-$$t.log; \
	    echo "make fuzz: $$t FAILED; input: $$(ls tests/fuzz/crash-$$t-* 2>/dev/null | head -1)"; \
	    echo "  reproduce: tests/fuzz/fuzz-$$t FILE; add it to tests/fuzz/regress/$$t/ with the fix"; \
	    fail=1; \
	  else \
	    grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' tests/fuzz/fuzz-$$t.log | tr '\n' ' '; \
	    echo "corpus now $$(ls $$corpus | wc -l) inputs"; \
	  fi; \
	done; test $$fail = 0

.PHONY: fuzz
EXTRA_DIST += tests/fuzz/fuzz_ini.c tests/fuzz/fuzz_options.c tests/fuzz/fuzz_trace.c \
	tests/fuzz/fuzz_otf2map.c tests/fuzz/fuzz_pcap.c tests/fuzz/fuzz_chakra.c \
	tests/fuzz/fuzz_graph.c tests/fuzz/fuzz_routes.c tests/fuzz/fuzz_placement.c \
	tests/fuzz/fuzz_stop.c tests/fuzz/fuzz_stop.h \
	tests/fuzz/samples.sh tests/fuzz/mkseed_bigsim.py tests/fuzz/mkseed_pcap.py \
	tests/fuzz/seeds tests/fuzz/regress

# make check: the harnesses without libFuzzer, over the regression inputs and
# the seeds (test_fuzz_regress.sh). The option harness replaces warp_fatal,
# so it links the option parser's sources instead of libwarp.
FUZZ_REGRESS_TRACE_SRC = tests/fuzz/fuzz_trace.c tests/fuzz/regress_main.c
FUZZ_REGRESS_TRACE_LDADD = libwarpnet.la libwarp.la $(OTF2_LIBS) $(PCAP_LIBS) $(METIS_LIBS) -lm
check_PROGRAMS += tests/fuzz/regress-ini tests/fuzz/regress-options tests/fuzz/regress-bigsim \
	tests/fuzz/regress-goal tests/fuzz/regress-native tests/fuzz/regress-dimemas tests/fuzz/regress-otf2map \
	tests/fuzz/regress-pcap tests/fuzz/regress-graph tests/fuzz/regress-routes tests/fuzz/regress-placement
tests_fuzz_regress_ini_SOURCES = tests/fuzz/fuzz_ini.c tests/fuzz/regress_main.c
tests_fuzz_regress_ini_LDADD = libwarp.la -lm
tests_fuzz_regress_options_SOURCES = tests/fuzz/fuzz_options.c tests/fuzz/regress_main.c \
	engine/options.c config/errline.c config/ini.c config/keys.c config/units.c config/xalloc.c config/hash.c \
	config/suggest.c config/cfg_table.c
tests_fuzz_regress_options_CFLAGS = $(AM_CFLAGS)
tests_fuzz_regress_options_LDADD = -lm
tests_fuzz_regress_bigsim_SOURCES = $(FUZZ_REGRESS_TRACE_SRC)
tests_fuzz_regress_bigsim_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_FORMAT=bigsim
tests_fuzz_regress_bigsim_LDADD = $(FUZZ_REGRESS_TRACE_LDADD)
tests_fuzz_regress_goal_SOURCES = $(FUZZ_REGRESS_TRACE_SRC)
tests_fuzz_regress_goal_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_FORMAT=goal
tests_fuzz_regress_goal_LDADD = $(FUZZ_REGRESS_TRACE_LDADD)
tests_fuzz_regress_native_SOURCES = $(FUZZ_REGRESS_TRACE_SRC)
tests_fuzz_regress_native_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_FORMAT=native
tests_fuzz_regress_native_LDADD = $(FUZZ_REGRESS_TRACE_LDADD)
tests_fuzz_regress_dimemas_SOURCES = $(FUZZ_REGRESS_TRACE_SRC)
tests_fuzz_regress_dimemas_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_FORMAT=dimemas
tests_fuzz_regress_dimemas_LDADD = $(FUZZ_REGRESS_TRACE_LDADD)
tests_fuzz_regress_otf2map_SOURCES = tests/fuzz/fuzz_otf2map.c tests/fuzz/regress_main.c
tests_fuzz_regress_otf2map_LDADD = $(FUZZ_REGRESS_TRACE_LDADD)
if HAVE_CHAKRA
check_PROGRAMS += tests/fuzz/regress-chakra
tests_fuzz_regress_chakra_SOURCES = tests/fuzz/fuzz_chakra.c tests/fuzz/regress_main.c
tests_fuzz_regress_chakra_CPPFLAGS = $(AM_CPPFLAGS) -I$(builddir)/models/replay/readers
tests_fuzz_regress_chakra_CFLAGS = $(AM_CFLAGS) $(PROTOBUF_C_CFLAGS)
tests_fuzz_regress_chakra_LDADD = $(FUZZ_REGRESS_TRACE_LDADD) $(PROTOBUF_C_LIBS)
endif
tests_fuzz_regress_pcap_SOURCES = tests/fuzz/fuzz_pcap.c tests/fuzz/regress_main.c
tests_fuzz_regress_pcap_LDADD = $(FUZZ_REGRESS_TRACE_LDADD)
# The network file readers' harnesses link the readers' sources themselves:
# --wrap reaches only the calls of objects linked into the program.
FUZZ_REGRESS_STOP_SRC = tests/fuzz/fuzz_stop.c tests/fuzz/fuzz_stop.h tests/fuzz/regress_main.c \
	config/xalloc.c config/fatal.c config/errline.c
FUZZ_REGRESS_GRAPH_SRC = models/graph/graph_read.c config/units.c $(FUZZ_REGRESS_STOP_SRC)
tests_fuzz_regress_graph_SOURCES = tests/fuzz/fuzz_graph.c $(FUZZ_REGRESS_GRAPH_SRC)
tests_fuzz_regress_graph_CFLAGS = $(AM_CFLAGS)
tests_fuzz_regress_graph_LDFLAGS = $(FUZZ_STOP_WRAP)
tests_fuzz_regress_graph_LDADD = -lm
tests_fuzz_regress_routes_SOURCES = tests/fuzz/fuzz_routes.c models/graph/graph_routes.c $(FUZZ_REGRESS_GRAPH_SRC)
tests_fuzz_regress_routes_CFLAGS = $(AM_CFLAGS)
tests_fuzz_regress_routes_LDFLAGS = $(FUZZ_STOP_WRAP)
tests_fuzz_regress_routes_LDADD = -lm
tests_fuzz_regress_placement_SOURCES = tests/fuzz/fuzz_placement.c models/net/partition_parse.c \
	$(FUZZ_REGRESS_STOP_SRC)
tests_fuzz_regress_placement_CFLAGS = $(AM_CFLAGS)
tests_fuzz_regress_placement_LDFLAGS = $(FUZZ_STOP_WRAP)
TESTS += tests/fuzz/test_fuzz_regress.sh
EXTRA_DIST += tests/fuzz/regress_main.c tests/fuzz/test_fuzz_regress.sh
