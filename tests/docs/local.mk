# tests/docs/local.mk — the commands and run files the docs give work as
# written in a plain checkout.
TESTS += tests/docs/test_doc_commands.sh tests/docs/test_doc_links.sh tests/docs/test_current_figures.sh \
	tests/docs/test_keys_declared.sh tests/docs/test_keys_reference.sh
EXTRA_DIST += tests/docs/test_doc_commands.sh tests/docs/test_doc_links.sh tests/docs/test_current_figures.sh \
	tests/docs/test_keys_declared.sh tests/docs/test_keys_reference.sh
LONG_CHECKS += tests/docs/test_quickstart_inplace.sh
EXTRA_DIST += tests/docs/test_quickstart_inplace.sh
