// SPDX-License-Identifier: Apache-2.0
#include "core/common/rfc3339.h"

namespace drasim {

namespace {

bool rfc3339Leap(int64_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int rfc3339DaysInMonth(int64_t y, int m)
{
    static const int kDays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    return m == 2 && rfc3339Leap(y) ? 29 : kDays[m - 1];
}

bool rfc3339Digit(char c)
{
    return c >= '0' && c <= '9';
}

/// `len` digits at `at` as a number; false when the text is shorter or holds another character.
bool rfc3339Number(std::string_view s, size_t at, size_t len, int& out)
{
    if (at + len > s.size())
        return false;
    int v = 0;
    for (size_t i = at; i < at + len; ++i) {
        if (!rfc3339Digit(s[i]))
            return false;
        v = v * 10 + (s[i] - '0');
    }
    out = v;
    return true;
}

/// ".123" at s[i]: advances i, the fraction in nanoseconds (digits past the ninth are dropped).
bool rfc3339Fraction(std::string_view s, size_t& i, int64_t& nanos)
{
    nanos = 0;
    if (i >= s.size() || s[i] != '.')
        return true;
    ++i;
    int digits = 0;
    for (; i < s.size() && rfc3339Digit(s[i]); ++i)
        if (digits < 9) {
            nanos = nanos * 10 + (s[i] - '0');
            ++digits;
        }
    if (digits == 0)
        return false;
    for (; digits < 9; ++digits)
        nanos *= 10;
    return true;
}

} // namespace

// Howard Hinnant's days-from-civil algorithm.
int64_t daysFromCivil(int64_t y, int m, int d)
{
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const int64_t yoe = y - era * 400;
    const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

bool parseRfc3339(std::string_view s, int64_t& seconds, int32_t& nanos, std::string* error)
{
    auto fail = [&](const char* why) {
        if (error)
            *error = "parsing time \"" + std::string(s) + "\" as RFC 3339: " + why;
        return false;
    };
    int year, month, day, hour, minute, second;
    if (!rfc3339Number(s, 0, 4, year) || s.size() < 20 || s[4] != '-' || !rfc3339Number(s, 5, 2, month)
        || s[7] != '-' || !rfc3339Number(s, 8, 2, day) || (s[10] != 'T' && s[10] != 't')
        || !rfc3339Number(s, 11, 2, hour) || s[13] != ':' || !rfc3339Number(s, 14, 2, minute) || s[16] != ':'
        || !rfc3339Number(s, 17, 2, second))
        return fail("cannot parse");
    size_t i = 19;
    int64_t frac = 0;
    if (!rfc3339Fraction(s, i, frac))
        return fail("cannot parse fractional seconds");
    int64_t offset = 0;
    if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) {
        ++i;
    } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
        int oh, om;
        if (!rfc3339Number(s, i + 1, 2, oh) || i + 3 >= s.size() || s[i + 3] != ':'
            || !rfc3339Number(s, i + 4, 2, om) || oh > 23 || om > 59)
            return fail("bad time zone offset");
        offset = (oh * 3600 + om * 60) * (s[i] == '-' ? -1 : 1);
        i += 6;
    } else {
        return fail("missing time zone");
    }
    if (i != s.size())
        return fail("extra text");
    if (month < 1 || month > 12 || day < 1 || day > rfc3339DaysInMonth(year, month) || hour > 23
        || minute > 59 || second > 59)
        return fail("value out of range");
    seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
    nanos = int32_t(frac);
    return true;
}

} // namespace drasim
