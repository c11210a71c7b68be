# tests/report/local.mk — warpnet-report on a real run; its error messages.
TESTS += tests/report/test_report.sh tests/report/test_report_errors.sh
dist_check_SCRIPTS += tests/report/test_report.sh tests/report/test_report_errors.sh
EXTRA_DIST += tests/report/lib.sh
