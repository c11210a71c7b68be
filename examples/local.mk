# examples/local.mk — example models and ready-made configurations.
include examples/phold/local.mk

# Ready-made run files: shipped and installed with the programs.
configsdir = $(pkgdatadir)/configs
dist_configs_DATA = examples/configs/README.md \
	examples/configs/torus-8x8x8.ini examples/configs/torus-16x16x16.ini \
	examples/configs/torus-32k-codes.ini examples/configs/simplenet-64.ini \
	examples/configs/loggp-64.ini examples/configs/fattree-8p3l.ini \
	examples/configs/fattree-8p3l-codes.ini examples/configs/fattree-32p3l.ini \
	examples/configs/fattree-128p3l.ini examples/configs/slimfly-q5.ini \
	examples/configs/fattree-summit-codes.ini examples/configs/leafspine-3to1.ini \
	examples/configs/fattree-4ary3tree.ini examples/configs/fattree-dual-plane.ini \
	examples/configs/slimfly-q13.ini examples/configs/slimfly-q37.ini \
	examples/configs/dragonfly-a4.ini examples/configs/dragonfly-codes-1056.ini \
	examples/configs/dragonfly-a16p8h8.ini examples/configs/dragonflyplus-small.ini \
	examples/configs/dragonflyplus-1024.ini examples/configs/dragonflyplus-codes-8448.ini \
	examples/configs/hyperx-4x4.ini examples/configs/hyperx-8x8x8.ini \
	examples/configs/graph-leafspine.ini examples/configs/leafspine-8x4.anynet \
	examples/configs/leafspine-8x4-detour.routes \
	examples/configs/fattree-16p3l-failed.ini examples/configs/dragonfly-a8-failed.ini \
	examples/configs/dragonfly-xc.ini examples/configs/dragonfly-theta.ini \
	examples/configs/dragonfly-dally-codes-72.ini \
	examples/configs/replay-jacobi-torus.ini examples/configs/replay-dimemas-fattree.ini \
	examples/configs/replay-stencil-512k-torus.ini examples/configs/replay-stencil-512k-simplenet.ini \
	examples/configs/replay-stencil-32k-torus.ini examples/configs/replay-stencil-32k-simplenet.ini \
	examples/configs/slimfly-q163.ini examples/configs/slimfly-q41.ini \
	examples/configs/fattree-128p3l-fts.ini examples/configs/fattree-50p3l-fts.ini \
	examples/configs/optical-rack-pair.ini examples/configs/optical-dc-32x32.ini \
	examples/configs/mapreduce-fattree.ini examples/configs/mapreduce-leafspine.ini \
	examples/configs/mapreduce-optical.ini examples/configs/optical-study-flow.ini \
	examples/configs/optical-study-electrical.ini

# CODES network configs (LPGROUPS/PARAMS) of the reference cases, for
# `warpnet convert codes`.
codesconfigsdir = $(pkgdatadir)/configs/codes
dist_codesconfigs_DATA = examples/configs/codes/torus-32k.conf \
	examples/configs/codes/fattree-8p3l.conf examples/configs/codes/slimfly-q5.conf \
	examples/configs/codes/dragonfly-a8.conf \
	examples/configs/codes/dragonfly-theta-intra examples/configs/codes/dragonfly-theta-inter \
	examples/configs/codes/intra-theta examples/configs/codes/inter-theta \
	examples/configs/codes/dfdally-72-intra examples/configs/codes/dfdally-72-inter

# Sample traces for the README's replay examples (examples/traces/README.md).
tracesdir = $(pkgdatadir)/traces
dist_traces_DATA = examples/traces/README.md examples/traces/stencil2d-32.wtt \
	examples/traces/pingpong.goal
