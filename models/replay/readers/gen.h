/* gen.h — procedural trace generators; open them as sources with
 * replay_source_open("gen:KIND:key=value,...", ...) (readers.h). */
#ifndef REPLAY_GEN_H
#define REPLAY_GEN_H

/* One paragraph listing the generator kinds and their keys, for --help. */
const char *replay_gen_help(void);

#endif
