// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/share_id.h"

#include <cstdio>
#include <ctime>

namespace drasim::scheduler {

namespace {

uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

} // namespace

std::string ShareIdGenerator::next()
{
    ++m_counter;
    uint64_t hi = splitmix64(m_seed * 2 + splitmix64(m_counter));
    uint64_t lo = splitmix64(hi ^ m_counter);
    hi = (hi & 0xffffffffffff0fffULL) | 0x0000000000004000ULL; // version 4
    lo = (lo & 0x3fffffffffffffffULL) | 0x8000000000000000ULL; // RFC 4122 variant
    char buf[40];
    std::snprintf(buf, sizeof buf, "%08x-%04x-%04x-%04x-%012llx", unsigned(hi >> 32),
        unsigned((hi >> 16) & 0xffff), unsigned(hi & 0xffff), unsigned(lo >> 48),
        static_cast<unsigned long long>(lo & 0xffffffffffffULL));
    return buf;
}

std::string formatRfc3339(double seconds)
{
    const std::time_t t = std::time_t(seconds);
    // Every binding stamps its allocation, so the date is computed here rather than by
    // gmtime_r and strftime (they were 6% of a binding in a planner study): days since
    // the epoch to a proleptic Gregorian date, in eras of 400 years.
    const int64_t days = (t >= 0 ? t : t - 86399) / 86400;
    const int64_t secs = t - days * 86400;
    const int64_t z = days + 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const int64_t doe = z - era * 146097; // [0, 146096]
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365; // [0, 399]
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365], from March 1
    const int64_t mp = (5 * doy + 2) / 153; // [0, 11], March first
    const int64_t day = doy - (153 * mp + 2) / 5 + 1;
    const int64_t month = mp < 10 ? mp + 3 : mp - 9;
    const int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
    if (year < 1000 || year > 9999) { // strftime writes these years unpadded or wider
        std::tm tm {};
        gmtime_r(&t, &tm);
        char buf[48];
        std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
        return buf;
    }
    char buf[21] = "0000-00-00T00:00:00Z";
    auto put = [&buf](int at, int64_t v, int width) {
        for (int i = width - 1; i >= 0; --i, v /= 10)
            buf[at + i] = char('0' + v % 10);
    };
    put(0, year, 4);
    put(5, month, 2);
    put(8, day, 2);
    put(11, secs / 3600, 2);
    put(14, secs / 60 % 60, 2);
    put(17, secs % 60, 2);
    return std::string(buf, 20);
}

} // namespace drasim::scheduler
