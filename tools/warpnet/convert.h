/* convert.h — `warpnet convert`: other simulators' inputs as Warpnet run files. */
#ifndef WN_CONVERT_H
#define WN_CONVERT_H

/* `warpnet convert codes FILE.conf`: prints the equivalent run file on stdout,
 * parameters without an equivalent on stderr. Returns the exit code (0, or 2
 * for a file that cannot be converted, with nothing on stdout). */
int wn_convert_codes(const char *path);

/* `warpnet convert KIND FILE`: dispatch and usage (argv[0] is "convert"). */
int wn_convert_main(int argc, char **argv);

#endif
