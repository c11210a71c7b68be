/* tests/engine/test_units.c — the unit parsers of warp_ini.h and the plain
 * number parsers of ini_internal.h: every unit's factor, exactness, and every
 * refusal. Expected values are written as the decimal they stand for: each
 * conversion is one correctly rounded step, so it must equal that literal. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ini_internal.h"
#include "warp_ini.h"

static double time_ok(const char *s)
{
    double v = -1;
    const char *why = "(none)";
    cr_assert_eq(warp_parse_time_ns(s, &v, &why), 0, "\"%s\" refused: %s", s, why);
    return v;
}

static double bw_ok(const char *s)
{
    double v = -1;
    const char *why = "(none)";
    cr_assert_eq(warp_parse_bandwidth(s, &v, &why), 0, "\"%s\" refused: %s", s, why);
    return v;
}

static double len_ok(const char *s)
{
    double v = -1;
    const char *why = "(none)";
    cr_assert_eq(warp_parse_length_m(s, &v, &why), 0, "\"%s\" refused: %s", s, why);
    return v;
}

static uint64_t bytes_ok(const char *s)
{
    uint64_t v = 1;
    const char *why = "(none)";
    cr_assert_eq(warp_parse_bytes(s, &v, &why), 0, "\"%s\" refused: %s", s, why);
    return v;
}

/* Asserts that parser `kind` refuses s with a reason starting with `why`. */
static void refused(int kind, const char *s, const char *why_prefix)
{
    double d;
    uint64_t u;
    int64_t i;
    const char *why = NULL;
    int r = kind == 0   ? warp_parse_time_ns(s, &d, &why)
            : kind == 1 ? warp_parse_bytes(s, &u, &why)
            : kind == 2 ? warp_parse_bandwidth(s, &d, &why)
            : kind == 3 ? ini_parse_int(s, &i, &why)
            : kind == 5 ? warp_parse_length_m(s, &d, &why)
                        : ini_parse_double(s, &d, &why);
    cr_assert_eq(r, -1, "parser %d accepted \"%s\"", kind, s);
    cr_assert_not_null(why, "parser %d refused \"%s\" without a reason", kind, s);
    cr_assert_eq(strncmp(why, why_prefix, strlen(why_prefix)), 0,
                 "parser %d on \"%s\": reason \"%s\", expected \"%s...\"", kind, s, why, why_prefix);
}

enum { TIME, BYTES, BW, INT, DBL, LEN };

Test(units, time_every_unit_to_ns)
{
    cr_assert_eq(time_ok("1ps"), 0.001);
    cr_assert_eq(time_ok("2.5ps"), 0.0025);
    cr_assert_eq(time_ok("7ns"), 7.0);
    cr_assert_eq(time_ok("3us"), 3000.0);
    cr_assert_eq(time_ok("3\xC2\xB5s"), 3000.0, "micro sign");
    cr_assert_eq(time_ok("3\xCE\xBCs"), 3000.0, "greek mu");
    cr_assert_eq(time_ok("2ms"), 2e6);
    cr_assert_eq(time_ok("1.5s"), 1.5e9);
    cr_assert_eq(time_ok("0ns"), 0.0);
}

Test(units, time_number_forms)
{
    cr_assert_eq(time_ok("1.5e3ns"), 1500.0);
    cr_assert_eq(time_ok("1.5E3ns"), 1500.0);
    cr_assert_eq(time_ok("25e-1us"), 2500.0);
    cr_assert_eq(time_ok(".5us"), 500.0);
    cr_assert_eq(time_ok("5.us"), 5000.0);
    cr_assert_eq(time_ok("+4ns"), 4.0);
    cr_assert_eq(time_ok("12.5 ns"), 12.5, "a blank between number and unit is allowed");
    cr_assert_eq(time_ok("  12.5\tns  "), 12.5, "outer blanks are ignored");
    double z = time_ok("-0ns");
    cr_assert(z == 0.0 && !signbit(z), "-0ns gives +0");
}

Test(units, time_refusals)
{
    refused(TIME, "5", "missing unit");
    refused(TIME, "5 ", "missing unit");
    refused(TIME, "5xs", "unknown unit");
    refused(TIME, "5NS", "unknown unit");
    refused(TIME, "5ns extra", "unknown unit");
    refused(TIME, "5 n s", "unknown unit");
    refused(TIME, "5e", "unknown unit");
    refused(TIME, "0x10ns", "unknown unit");
    refused(TIME, "-1ns", "negative time");
    refused(TIME, "-1e-300ps", "negative time");
    refused(TIME, "1e400s", "time too large");
    refused(TIME, "1e300s", "time too large"); /* finite number, infinite in ns */
    refused(TIME, "nan ns", "not a number");
    refused(TIME, "inf ns", "not a number");
    refused(TIME, "", "not a number");
    refused(TIME, "ns", "not a number");
    refused(TIME, ".ns", "not a number");
    refused(TIME, "--1ns", "not a number");
}

Test(units, bandwidth_bits_per_second)
{
    cr_assert_eq(bw_ok("1bps"), 1.25e-10);
    cr_assert_eq(bw_ok("1Kbps"), 1.25e-7);
    cr_assert_eq(bw_ok("1kbps"), 1.25e-7);
    cr_assert_eq(bw_ok("2.5Mbps"), 3.125e-4);
    cr_assert_eq(bw_ok("100Gbps"), 12.5);
    cr_assert_eq(bw_ok("100 Gb/s"), 12.5);
    cr_assert_eq(bw_ok("1Tbps"), 125.0);
    cr_assert_eq(bw_ok("8b/s"), 1e-9);
}

Test(units, bandwidth_bytes_per_second)
{
    cr_assert_eq(bw_ok("1B/s"), 1e-9);
    cr_assert_eq(bw_ok("1KB/s"), 1e-6);
    cr_assert_eq(bw_ok("1MB/s"), 1e-3);
    cr_assert_eq(bw_ok("1GB/s"), 1.0);
    cr_assert_eq(bw_ok("12.5 GB/s"), 12.5);
    cr_assert_eq(bw_ok("2TB/s"), 2000.0);
    cr_assert_eq(bw_ok("1KiB/s"), 1.024e-6);
    cr_assert_eq(bw_ok("1MiB/s"), 1.048576e-3);
    cr_assert_eq(bw_ok("1GiB/s"), 1.073741824);
    cr_assert_eq(bw_ok("1TiB/s"), 1099.511627776);
}

Test(units, bandwidth_refusals)
{
    refused(BW, "12.5", "missing unit");
    refused(BW, "12.5GB", "unknown unit");
    refused(BW, "12.5 GBps", "unknown unit");
    refused(BW, "12.5GB/sec", "unknown unit");
    refused(BW, "0Gbps", "bandwidth must be positive");
    refused(BW, "-1GB/s", "bandwidth must be positive");
    refused(BW, "1e-400GB/s", "bandwidth must be positive");
    refused(BW, "1e400GB/s", "bandwidth too large");
    refused(BW, "nan GB/s", "not a number");
    refused(BW, "GB/s", "not a number");
}

Test(units, length_every_unit_to_metres)
{
    cr_assert_eq(len_ok("5mm"), 0.005);
    cr_assert_eq(len_ok("250cm"), 2.5);
    cr_assert_eq(len_ok("10m"), 10.0);
    cr_assert_eq(len_ok("0m"), 0.0);
    cr_assert_eq(len_ok("1.5 km"), 1500.0);
    refused(LEN, "10", "missing unit");
    refused(LEN, "10ft", "unknown unit");
    refused(LEN, "-1m", "negative length");
    refused(LEN, "1e400km", "length too large");
}

Test(units, bytes_every_unit)
{
    cr_assert_eq(bytes_ok("4096B"), 4096u);
    cr_assert_eq(bytes_ok("2KB"), 2000u);
    cr_assert_eq(bytes_ok("2kB"), 2000u);
    cr_assert_eq(bytes_ok("3MB"), 3000000u);
    cr_assert_eq(bytes_ok("4GB"), 4000000000u);
    cr_assert_eq(bytes_ok("5TB"), 5000000000000u);
    cr_assert_eq(bytes_ok("2KiB"), 2048u);
    cr_assert_eq(bytes_ok("3MiB"), 3u << 20);
    cr_assert_eq(bytes_ok("4GiB"), 4ull << 30);
    cr_assert_eq(bytes_ok("5TiB"), 5ull << 40);
    cr_assert_eq(bytes_ok("0B"), 0u);
    cr_assert_eq(bytes_ok("-0B"), 0u);
}

Test(units, bytes_exact_forms)
{
    cr_assert_eq(bytes_ok("1.5KiB"), 1536u);
    cr_assert_eq(bytes_ok("1.5e3B"), 1500u);
    cr_assert_eq(bytes_ok("0.5KB"), 500u);
    cr_assert_eq(bytes_ok("12.5 MB"), 12500000u);
    cr_assert_eq(bytes_ok("0.0009765625MiB"), 1024u);
    cr_assert_eq(bytes_ok("1e19B"), 10000000000000000000u);
    cr_assert_eq(bytes_ok("18446744073709551615B"), UINT64_MAX);
    cr_assert_eq(bytes_ok("16777215TiB"), UINT64_MAX - ((1ull << 40) - 1));
    cr_assert_eq(bytes_ok("000000000000000000000000000001KB"), 1000u,
                 "leading zeros are not significant digits");
    cr_assert_eq(bytes_ok("1.000000000000000000000000000000KB"), 1000u,
                 "trailing zeros are not significant digits");
    cr_assert_eq(bytes_ok("100000000000000000000000e-5B"), 1000000000000000000u);
}

Test(units, bytes_refusals)
{
    refused(BYTES, "4096", "missing unit");
    refused(BYTES, "4096b", "unknown unit");
    refused(BYTES, "4Kib", "unknown unit");
    refused(BYTES, "0.5B", "not a whole number of bytes");
    refused(BYTES, "0.3KiB", "not a whole number of bytes");
    refused(BYTES, "1e-40B", "not a whole number of bytes");
    refused(BYTES, "-1B", "negative size");
    refused(BYTES, "18446744073709551616B", "size too large");
    refused(BYTES, "17179869184GiB", "size too large"); /* exactly 2^64 */
    refused(BYTES, "1e20B", "size too large");
    refused(BYTES, "1e999999999999B", "size too large");
    refused(BYTES, "1.00000000000000000001KB", "too many digits");
    refused(BYTES, "KB", "not a number");
}

Test(units, plain_integers)
{
    int64_t v;
    const char *why;
    struct {
        const char *s;
        int64_t v;
    } ok[] = {{"42", 42},
              {"-7", -7},
              {" 8 ", 8},
              {"1e6", 1000000},
              {"1.5e3", 1500},
              {"9223372036854775807", INT64_MAX},
              {"-9223372036854775808", INT64_MIN}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        cr_assert_eq(ini_parse_int(ok[i].s, &v, &why), 0, "\"%s\" refused", ok[i].s);
        cr_assert_eq(v, ok[i].v, "\"%s\" gave %lld", ok[i].s, (long long)v);
    }
    refused(INT, "9223372036854775808", "out of the 64-bit integer range");
    refused(INT, "-9223372036854775809", "out of the 64-bit integer range");
    refused(INT, "1e30", "out of the 64-bit integer range");
    refused(INT, "1.5", "not a whole number");
    refused(INT, "8ns", "text after the number");
    refused(INT, "0x10", "text after the number");
    refused(INT, "", "not a number");
}

Test(units, plain_doubles)
{
    double v;
    const char *why;
    cr_assert_eq(ini_parse_double("0.5", &v, &why), 0);
    cr_assert_eq(v, 0.5);
    cr_assert_eq(ini_parse_double("-1e-3", &v, &why), 0);
    cr_assert_eq(v, -1e-3);
    refused(DBL, "1e400", "number too large");
    refused(DBL, "1.5x", "text after the number");
    refused(DBL, "inf", "not a number");
    refused(DBL, "nan", "not a number");
}
