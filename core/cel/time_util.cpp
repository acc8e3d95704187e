// SPDX-License-Identifier: Apache-2.0
#include "core/cel/time_util.h"

#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <vector>

#include "core/cel/text_chars.h"
#include "core/common/rfc3339.h"

namespace drasim::cel {

namespace {

// Howard Hinnant's civil-from-days algorithm (proleptic Gregorian calendar); its inverse,
// daysFromCivil, is core/common/rfc3339.h's.
void civilFromDays(int64_t z, int64_t* y, int* m, int* d)
{
    z += 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const int64_t doe = z - era * 146097;
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const int64_t mp = (5 * doy + 2) / 153;
    *d = int(doy - (153 * mp + 2) / 5 + 1);
    *m = int(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

int64_t floorDiv(int64_t a, int64_t b)
{
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

/// A parsed TZif file: transition times and the UTC offset that applies from each.
struct Zone
{
    std::vector<int64_t> transitions;
    std::vector<int64_t> offsets; ///< offset after transitions[i]
    int64_t initialOffset = 0;
};

bool readZone(const std::string& name, Zone* zone)
{
    for (char c : name) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '_' || c == '-' || c == '+'))
            return false;
    }
    if (name.empty() || name.find("..") != std::string::npos || name[0] == '/')
        return false;
    std::ifstream in("/usr/share/zoneinfo/" + name, std::ios::binary);
    if (!in)
        return false;
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto be32 = [&](size_t at) {
        return int32_t(uint32_t(uint8_t(data[at])) << 24 | uint32_t(uint8_t(data[at + 1])) << 16
            | uint32_t(uint8_t(data[at + 2])) << 8 | uint32_t(uint8_t(data[at + 3])));
    };
    auto be64
        = [&](size_t at) { return int64_t(uint64_t(uint32_t(be32(at))) << 32 | uint32_t(be32(at + 4))); };
    if (data.size() < 44 || data.compare(0, 4, "TZif") != 0)
        return false;
    auto counts = [&](size_t header, int64_t c[6]) {
        for (int i = 0; i < 6; ++i)
            c[i] = be32(header + 20 + size_t(i) * 4);
    };
    // Fields: isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt.
    int64_t c[6];
    counts(0, c);
    size_t header = 0;
    int timeSize = 4;
    char version = data[4];
    if (version >= '2') {
        // Skip the version-1 body; the version-2 body has 64-bit transition times.
        size_t v1 = 44 + size_t(c[3]) * 5 + size_t(c[4]) * 6 + size_t(c[5]) + size_t(c[2]) * 8 + size_t(c[1])
            + size_t(c[0]);
        if (data.size() < v1 + 44)
            return false;
        header = v1;
        counts(header, c);
        timeSize = 8;
    }
    size_t at = header + 44;
    size_t need = at + size_t(c[3]) * size_t(timeSize + 1) + size_t(c[4]) * 6;
    if (data.size() < need || c[4] <= 0)
        return false;
    std::vector<int64_t> times(static_cast<size_t>(c[3]));
    for (auto& t : times) {
        t = timeSize == 8 ? be64(at) : be32(at);
        at += size_t(timeSize);
    }
    std::vector<uint8_t> idx(static_cast<size_t>(c[3]));
    for (auto& i : idx)
        i = uint8_t(data[at++]);
    std::vector<int64_t> typeOffsets(static_cast<size_t>(c[4]));
    for (auto& o : typeOffsets) {
        o = be32(at);
        at += 6;
    }
    zone->initialOffset = typeOffsets[0];
    for (size_t i = 0; i < times.size(); ++i) {
        if (idx[i] >= typeOffsets.size())
            return false;
        zone->transitions.push_back(times[i]);
        zone->offsets.push_back(typeOffsets[idx[i]]);
    }
    return true;
}

} // namespace

std::optional<int64_t> parseDuration(std::string_view text, std::string* error)
{
    auto fail = [&]() -> std::optional<int64_t> {
        if (error)
            *error = "time: invalid duration \"" + std::string(text) + "\"";
        return std::nullopt;
    };
    std::string_view s = text;
    bool negative = false;
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
        negative = s[0] == '-';
        s.remove_prefix(1);
    }
    if (s == "0")
        return 0;
    if (s.empty())
        return fail();
    // Accumulate in 128 bits so overflow is detected exactly.
    __int128 total = 0;
    while (!s.empty()) {
        size_t i = 0;
        __int128 whole = 0;
        bool digits = false;
        while (i < s.size() && isDigit(s[i])) {
            whole = whole * 10 + (s[i] - '0');
            if (whole > (__int128(1) << 80))
                return fail();
            digits = true;
            ++i;
        }
        __int128 frac = 0, scale = 1;
        if (i < s.size() && s[i] == '.') {
            ++i;
            while (i < s.size() && isDigit(s[i])) {
                if (scale < __int128(1000000000000000000LL)) {
                    frac = frac * 10 + (s[i] - '0');
                    scale *= 10;
                }
                digits = true;
                ++i;
            }
        }
        if (!digits)
            return fail();
        size_t u = i;
        while (i < s.size() && !isDigit(s[i]) && s[i] != '.')
            ++i;
        std::string_view unit = s.substr(u, i - u);
        int64_t mult;
        if (unit == "ns")
            mult = 1;
        else if (unit == "us" || unit == "\u00b5s" || unit == "\u03bcs")
            mult = 1000;
        else if (unit == "ms")
            mult = 1000000;
        else if (unit == "s")
            mult = kNanosPerSecond;
        else if (unit == "m")
            mult = 60 * kNanosPerSecond;
        else if (unit == "h")
            mult = 3600 * kNanosPerSecond;
        else
            return fail();
        total += whole * mult + frac * mult / scale;
        if (total > (__int128(1) << 63))
            return fail();
        s.remove_prefix(i);
    }
    if (negative)
        total = -total;
    if (total > INT64_MAX || total < INT64_MIN)
        return fail();
    return int64_t(total);
}

std::string formatDuration(int64_t nanos)
{
    __int128 v = nanos;
    bool negative = v < 0;
    if (negative)
        v = -v;
    int64_t secs = int64_t(v / kNanosPerSecond);
    int64_t frac = int64_t(v % kNanosPerSecond);
    std::string out = negative ? "-" : "";
    out += std::to_string(secs);
    if (frac) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%09lld", static_cast<long long>(frac));
        std::string f = buf;
        while (!f.empty() && f.back() == '0')
            f.pop_back();
        out += "." + f;
    }
    return out + "s";
}

bool parseTimestamp(std::string_view s, int64_t* seconds, int32_t* nanos, std::string* error)
{
    int64_t secs = 0;
    int32_t frac = 0;
    if (!parseRfc3339(s, secs, frac, error))
        return false;
    if (secs < kMinTimestampSeconds || secs > kMaxTimestampSeconds) {
        if (error)
            *error = "parsing time \"" + std::string(s) + "\" as RFC 3339: timestamp out of range";
        return false;
    }
    *seconds = secs;
    *nanos = frac;
    return true;
}

CivilTime civilFromUnix(int64_t seconds, int64_t offsetSeconds)
{
    int64_t local = seconds + offsetSeconds;
    int64_t days = floorDiv(local, 86400);
    int64_t rem = local - days * 86400;
    CivilTime c {};
    civilFromDays(days, &c.year, &c.month, &c.day);
    c.hour = int(rem / 3600);
    c.minute = int(rem / 60 % 60);
    c.second = int(rem % 60);
    c.dayOfWeek = int(((days % 7) + 11) % 7); // 1970-01-01 was a Thursday (4)
    c.dayOfYear = int(days - daysFromCivil(c.year, 1, 1));
    return c;
}

std::string formatTimestamp(int64_t seconds, int32_t nanos)
{
    CivilTime c = civilFromUnix(seconds, 0);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04lld-%02d-%02dT%02d:%02d:%02d", static_cast<long long>(c.year), c.month,
        c.day, c.hour, c.minute, c.second);
    std::string out = buf;
    if (nanos) {
        std::snprintf(buf, sizeof buf, "%09d", nanos);
        std::string f = buf;
        while (!f.empty() && f.back() == '0')
            f.pop_back();
        out += "." + f;
    }
    return out + "Z";
}

std::optional<int64_t> zoneOffset(std::string_view zone, int64_t atSeconds, std::string* error)
{
    if (zone == "UTC" || zone == "Z" || zone.empty())
        return 0;
    if (zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && zone[3] == ':' && isDigit(zone[1])
        && isDigit(zone[2]) && isDigit(zone[4]) && isDigit(zone[5])) {
        int64_t off
            = ((zone[1] - '0') * 10 + (zone[2] - '0')) * 3600 + ((zone[4] - '0') * 10 + (zone[5] - '0')) * 60;
        return zone[0] == '-' ? -off : off;
    }
    // IANA names: parsed once per process and cached (deterministic: the data is read-only).
    static std::mutex mutex;
    static std::map<std::string, std::optional<Zone>, std::less<>> cache;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(zone);
    if (it == cache.end()) {
        Zone z;
        std::optional<Zone> entry;
        if (readZone(std::string(zone), &z))
            entry = std::move(z);
        it = cache.emplace(std::string(zone), std::move(entry)).first;
    }
    if (!it->second) {
        if (error)
            *error = "unknown time zone " + std::string(zone);
        return std::nullopt;
    }
    const Zone& z = *it->second;
    int64_t offset = z.initialOffset;
    for (size_t i = 0; i < z.transitions.size() && z.transitions[i] <= atSeconds; ++i)
        offset = z.offsets[i];
    return offset;
}

} // namespace drasim::cel
