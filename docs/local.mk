# docs/local.mk
dist_doc_DATA = docs/trace-format.md docs/errors.md
