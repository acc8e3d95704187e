// SPDX-License-Identifier: Apache-2.0
#include "core/common/semver.h"

#include <algorithm>

// Mirrors blang/semver v4 Parse (strict) and the Kubernetes CEL library's normalising parse,
// including their error texts, so CEL errors read like the API server's.

namespace drasim {

namespace {

bool allDigits(std::string_view s)
{
    return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool allAlnum(std::string_view s)
{
    return std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
    });
}

bool hasLeadingZeroes(std::string_view s)
{
    return s.size() > 1 && s[0] == '0';
}

std::optional<uint64_t> parseUint(std::string_view s)
{
    if (s.empty())
        return std::nullopt;
    uint64_t v = 0;
    for (char c : s) {
        uint64_t d = uint64_t(c - '0');
        if (v > (UINT64_MAX - d) / 10)
            return std::nullopt;
        v = v * 10 + d;
    }
    return v;
}

std::vector<std::string> split(std::string_view s, char sep)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (true) {
        size_t p = s.find(sep, start);
        if (p == std::string_view::npos) {
            out.emplace_back(s.substr(start));
            return out;
        }
        out.emplace_back(s.substr(start, p - start));
        start = p + 1;
    }
}

// strings.SplitN(s, ".", 3)
std::vector<std::string> splitN3(std::string_view s)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (out.size() < 2) {
        size_t p = s.find('.', start);
        if (p == std::string_view::npos)
            break;
        out.emplace_back(s.substr(start, p - start));
        start = p + 1;
    }
    out.emplace_back(s.substr(start));
    return out;
}

std::string quoted(std::string_view s)
{
    std::string r;
    r.reserve(s.size() + 2);
    r += '"';
    r += s;
    r += '"';
    return r;
}

bool isNumeric(const std::string& id)
{
    return !id.empty() && allDigits(id);
}

std::optional<SemVer> strictParse(std::string_view s, std::string* error)
{
    auto fail = [&](std::string message) -> std::optional<SemVer> {
        if (error)
            *error = std::move(message);
        return std::nullopt;
    };
    if (s.empty())
        return fail("Version string empty");
    auto parts = splitN3(s);
    if (parts.size() != 3)
        return fail("No Major.Minor.Patch elements found");
    SemVer v;
    const char* names[] = { "major", "minor" };
    const char* cap[] = { "Major", "Minor" };
    uint64_t* targets[] = { &v.major, &v.minor };
    for (int i = 0; i < 2; ++i) {
        if (!allDigits(parts[i]))
            return fail(
                std::string("Invalid character(s) found in ") + names[i] + " number " + quoted(parts[i]));
        if (hasLeadingZeroes(parts[i]))
            return fail(std::string(cap[i]) + " number must not contain leading zeroes " + quoted(parts[i]));
        auto n = parseUint(parts[i]);
        if (!n)
            return fail("strconv.ParseUint: parsing " + quoted(parts[i]) + ": invalid syntax");
        *targets[i] = *n;
    }
    std::string_view patch = parts[2];
    std::vector<std::string> build, pre;
    bool hasBuild = false, hasPre = false;
    if (size_t b = patch.find('+'); b != std::string_view::npos) {
        build = split(patch.substr(b + 1), '.');
        hasBuild = true;
        patch = patch.substr(0, b);
    }
    if (size_t p = patch.find('-'); p != std::string_view::npos) {
        pre = split(patch.substr(p + 1), '.');
        hasPre = true;
        patch = patch.substr(0, p);
    }
    if (!allDigits(patch))
        return fail("Invalid character(s) found in patch number " + quoted(patch));
    if (hasLeadingZeroes(patch))
        return fail("Patch number must not contain leading zeroes " + quoted(patch));
    auto n = parseUint(patch);
    if (!n)
        return fail("strconv.ParseUint: parsing " + quoted(patch) + ": invalid syntax");
    v.patch = *n;
    if (hasPre) {
        for (const auto& id : pre) {
            if (id.empty())
                return fail("Prerelease is empty");
            if (allDigits(id)) {
                if (hasLeadingZeroes(id))
                    return fail("Numeric PreRelease version must not contain leading zeroes " + quoted(id));
                if (!parseUint(id))
                    return fail("strconv.ParseUint: parsing " + quoted(id) + ": value out of range");
            } else if (!allAlnum(id)) {
                return fail("Invalid character(s) found in prerelease " + quoted(id));
            }
            v.pre.push_back(id);
        }
    }
    if (hasBuild) {
        for (const auto& id : build) {
            if (id.empty())
                return fail("Build meta data is empty");
            if (!allAlnum(id))
                return fail("Invalid character(s) found in build meta data " + quoted(id));
            v.build.push_back(id);
        }
    }
    return v;
}

} // namespace

std::optional<SemVer> SemVer::parse(std::string_view text, bool normalize, std::string* error)
{
    if (!normalize)
        return strictParse(text, error);
    // Kubernetes CEL normalizeAndParse: drop one "v", strip leading zeros of the first three
    // dot-separated parts, pad a short version with ".0".
    std::string_view s = text;
    if (!s.empty() && s[0] == 'v')
        s.remove_prefix(1);
    auto parts = splitN3(s);
    for (auto& p : parts) {
        if (p.size() > 1) {
            size_t z = p.find_first_not_of('0');
            std::string t = z == std::string::npos ? std::string() : p.substr(z);
            if (t.empty() || !(t[0] >= '0' && t[0] <= '9'))
                t = "0" + t;
            p = t;
        }
    }
    if (parts.size() < 3) {
        if (parts.back().find_first_of("+-") != std::string::npos) {
            if (error)
                *error = "short version cannot contain PreRelease/Build meta data";
            return std::nullopt;
        }
        while (parts.size() < 3)
            parts.push_back("0");
    }
    std::string joined = parts[0] + "." + parts[1] + "." + parts[2];
    return strictParse(joined, error);
}

std::string SemVer::toString() const
{
    std::string s = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
    for (size_t i = 0; i < pre.size(); ++i)
        s += (i == 0 ? "-" : ".") + pre[i];
    for (size_t i = 0; i < build.size(); ++i)
        s += (i == 0 ? "+" : ".") + build[i];
    return s;
}

int SemVer::compare(const SemVer& o) const
{
    auto cmp = [](uint64_t a, uint64_t b) { return a < b ? -1 : (a > b ? 1 : 0); };
    if (int c = cmp(major, o.major))
        return c;
    if (int c = cmp(minor, o.minor))
        return c;
    if (int c = cmp(patch, o.patch))
        return c;
    // A version without pre-release identifiers has higher precedence.
    if (pre.empty() || o.pre.empty())
        return pre.empty() == o.pre.empty() ? 0 : (pre.empty() ? 1 : -1);
    for (size_t i = 0;; ++i) {
        if (i == pre.size() || i == o.pre.size())
            return pre.size() == o.pre.size() ? 0 : (i == pre.size() ? -1 : 1);
        const bool n1 = isNumeric(pre[i]), n2 = isNumeric(o.pre[i]);
        int c = 0;
        if (n1 && n2)
            c = cmp(*parseUint(pre[i]), *parseUint(o.pre[i]));
        else if (n1 != n2)
            c = n1 ? -1 : 1; // numeric identifiers sort before alphanumeric ones
        else
            c = pre[i] < o.pre[i] ? -1 : (pre[i] > o.pre[i] ? 1 : 0);
        if (c)
            return c;
    }
}

} // namespace drasim
