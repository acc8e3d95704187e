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
    std::time_t t = std::time_t(seconds);
    std::tm tm {};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

} // namespace drasim::scheduler
