# tests/bench/local.mk — the benchmark tools users run on other machines.
TESTS += tests/bench/test_bundle.sh tests/bench/test_pair.sh tests/bench/test_sweep_progress.sh tests/bench/test_scaling_model.sh
EXTRA_DIST += tests/bench/test_bundle.sh tests/bench/test_pair.sh tests/bench/test_sweep_progress.sh tests/bench/test_scaling_model.sh
