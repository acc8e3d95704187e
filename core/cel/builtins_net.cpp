// SPDX-License-Identifier: Apache-2.0
// Kubernetes IP and CIDR libraries (cel.md §7, since 1.30), after Go's net/netip semantics:
// IPv4-mapped IPv6 addresses and zones are rejected, canonical text follows RFC 5952.
// Values carry the 16 address bytes inline (Value::u and Value::n), so no heap is used.
#include <algorithm>
#include <cstring>

#include "core/cel/builtin_impls.h"
#include "core/cel/builtins.h"
#include "core/cel/interpreter.h"

namespace drasim::cel {

namespace {

struct Addr
{
    uint8_t bytes[16] = {}; ///< IPv4 uses the first four
    int family = 0; ///< 4 or 6
};

bool parseIPv4(std::string_view s, uint8_t out[4])
{
    int part = 0;
    size_t i = 0;
    while (part < 4) {
        size_t start = i;
        int v = 0;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i - start < 3) {
            v = v * 10 + (s[i] - '0');
            ++i;
        }
        size_t len = i - start;
        if (len == 0 || v > 255 || (len > 1 && s[start] == '0'))
            return false; // Go rejects leading zeros (ambiguous octal)
        out[part++] = uint8_t(v);
        if (part < 4) {
            if (i >= s.size() || s[i] != '.')
                return false;
            ++i;
        }
    }
    return i == s.size();
}

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool parseIPv6(std::string_view s, uint8_t out[16])
{
    uint16_t groups[8] = {};
    int count = 0;
    int gap = -1;
    size_t i = 0;
    if (s.starts_with("::")) {
        gap = 0;
        i = 2;
        if (i == s.size())
            return true;
    }
    while (i < s.size()) {
        if (count == 8)
            return false;
        // Embedded IPv4 in the last 32 bits.
        size_t dot = s.find('.', i);
        size_t colon = s.find(':', i);
        if (dot != std::string_view::npos && (colon == std::string_view::npos || dot < colon)) {
            uint8_t v4[4];
            if (count > 6 || !parseIPv4(s.substr(i), v4))
                return false;
            groups[count++] = uint16_t(v4[0] << 8 | v4[1]);
            groups[count++] = uint16_t(v4[2] << 8 | v4[3]);
            i = s.size();
            break;
        }
        int v = 0, digits = 0;
        while (i < s.size() && hexDigit(s[i]) >= 0) {
            if (++digits > 4)
                return false;
            v = v * 16 + hexDigit(s[i]);
            ++i;
        }
        if (digits == 0)
            return false;
        groups[count++] = uint16_t(v);
        if (i == s.size())
            break;
        if (s[i] != ':')
            return false;
        ++i;
        if (i < s.size() && s[i] == ':') {
            if (gap >= 0)
                return false;
            gap = count;
            ++i;
            if (i == s.size())
                break;
        } else if (i == s.size()) {
            return false;
        }
    }
    if (gap < 0 && count != 8)
        return false;
    if (gap >= 0 && count == 8)
        return false;
    uint16_t full[8] = {};
    if (gap < 0) {
        std::memcpy(full, groups, sizeof full);
    } else {
        for (int k = 0; k < gap; ++k)
            full[k] = groups[k];
        int tail = count - gap;
        for (int k = 0; k < tail; ++k)
            full[8 - tail + k] = groups[gap + k];
    }
    for (int k = 0; k < 8; ++k) {
        out[2 * k] = uint8_t(full[k] >> 8);
        out[2 * k + 1] = uint8_t(full[k] & 0xFF);
    }
    return true;
}

bool isMappedV4(const uint8_t b[16])
{
    static const uint8_t prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF };
    return std::memcmp(b, prefix, 12) == 0;
}

/// Parses like the Kubernetes library: netip.ParseAddr without zones or IPv4-mapped IPv6.
bool parseAddr(std::string_view s, Addr* a, std::string* error)
{
    if (s.find('%') != std::string_view::npos) {
        *error = "IP address with zone value is not allowed";
        return false;
    }
    if (s.find(':') == std::string_view::npos) {
        if (!parseIPv4(s, a->bytes)) {
            *error = "IP Address \"" + std::string(s)
                + "\" parse error during conversion from string: ParseAddr(\"" + std::string(s)
                + "\"): unable to parse IP";
            return false;
        }
        a->family = 4;
        return true;
    }
    if (!parseIPv6(s, a->bytes)) {
        *error = "IP Address \"" + std::string(s)
            + "\" parse error during conversion from string: ParseAddr(\"" + std::string(s)
            + "\"): unable to parse IP";
        return false;
    }
    if (isMappedV4(a->bytes)) {
        *error = "IPv4-mapped IPv6 address \"" + std::string(s) + "\" is not allowed";
        return false;
    }
    a->family = 6;
    return true;
}

std::string formatAddr(const Addr& a)
{
    char buf[64];
    if (a.family == 4) {
        std::snprintf(buf, sizeof buf, "%d.%d.%d.%d", a.bytes[0], a.bytes[1], a.bytes[2], a.bytes[3]);
        return buf;
    }
    uint16_t g[8];
    for (int k = 0; k < 8; ++k)
        g[k] = uint16_t(a.bytes[2 * k] << 8 | a.bytes[2 * k + 1]);
    // RFC 5952: compress the longest run (>= 2) of zero groups, the first one on ties.
    int bestStart = -1, bestLen = 0;
    for (int k = 0; k < 8;) {
        if (g[k] != 0) {
            ++k;
            continue;
        }
        int start = k;
        while (k < 8 && g[k] == 0)
            ++k;
        if (k - start > bestLen && k - start >= 2) {
            bestStart = start;
            bestLen = k - start;
        }
    }
    std::string out;
    for (int k = 0; k < 8; ++k) {
        if (k == bestStart) {
            out += "::";
            k += bestLen - 1;
            continue;
        }
        if (!out.empty() && out.back() != ':')
            out += ':';
        std::snprintf(buf, sizeof buf, "%x", g[k]);
        out += buf;
    }
    return out;
}

Value ipValue(const Addr& a, Kind kind = Kind::IP, int prefix = 0)
{
    Value r;
    r.kind = kind;
    std::memcpy(&r.u, a.bytes, 8);
    std::memcpy(&r.n, a.bytes + 8, 8);
    r.aux = a.family * 256 + prefix;
    return r;
}

Addr addrOf(const Value& v)
{
    Addr a;
    std::memcpy(a.bytes, &v.u, 8);
    std::memcpy(a.bytes + 8, &v.n, 8);
    a.family = v.aux / 256;
    return a;
}

int prefixOf(const Value& v)
{
    return v.aux % 256;
}

bool parseCidr(std::string_view s, Addr* a, int* prefix, std::string* error)
{
    size_t slash = s.find('/');
    std::string ignored;
    if (slash == std::string_view::npos || !parseAddr(s.substr(0, slash), a, error)) {
        if (error->empty())
            *error = "network address parse error during conversion from string: netip.ParsePrefix(\""
                + std::string(s) + "\"): no '/'";
        return false;
    }
    std::string_view bits = s.substr(slash + 1);
    int p = 0;
    if (bits.empty() || bits.size() > 3 || (bits.size() > 1 && bits[0] == '0'))
        return (*error = "network address parse error during conversion from string: bad bits"), false;
    for (char c : bits) {
        if (c < '0' || c > '9')
            return (*error = "network address parse error during conversion from string: bad bits"), false;
        p = p * 10 + (c - '0');
    }
    if (p > (a->family == 4 ? 32 : 128))
        return (*error
                   = "network address parse error during conversion from string: prefix length out of range"),
               false;
    *prefix = p;
    return true;
}

Addr masked(Addr a, int prefix)
{
    int total = a.family == 4 ? 4 : 16;
    for (int byte = 0; byte < total; ++byte) {
        int keep = prefix - byte * 8;
        if (keep >= 8)
            continue;
        a.bytes[byte] = keep <= 0 ? 0 : uint8_t(a.bytes[byte] & (0xFF << (8 - keep)));
    }
    return a;
}

bool containsAddr(const Addr& net, int prefix, const Addr& ip)
{
    if (net.family != ip.family)
        return false;
    Addr x = masked(net, prefix);
    Addr y = masked(ip, prefix);
    return std::memcmp(x.bytes, y.bytes, 16) == 0;
}

} // namespace

std::string netToString(const Value& v)
{
    if (v.kind == Kind::IP)
        return formatAddr(addrOf(v));
    return formatAddr(addrOf(v)) + "/" + std::to_string(prefixOf(v));
}

namespace impl {

#define BUILTIN(fn) Value fn(EvalContext& ctx, const Value* a, size_t n, const Node& call)
#define UNUSED_ARGS                                                                                          \
    (void)ctx;                                                                                               \
    (void)n;                                                                                                 \
    (void)call

BUILTIN(ip)
{
    UNUSED_ARGS;
    if (a[0].kind == Kind::CIDR)
        return cidrIP(ctx, a, n, call); // cidr.ip()
    if (a[0].kind != Kind::String)
        return noSuchOverload("ip");
    Addr addr;
    std::string error;
    if (!parseAddr(a[0].str(), &addr, &error))
        return Value::error(error);
    return ipValue(addr);
}

BUILTIN(isIP)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::String)
        return noSuchOverload("isIP");
    Addr addr;
    std::string error;
    return Value::boolean(parseAddr(a[0].str(), &addr, &error));
}

BUILTIN(ipIsCanonical)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::String)
        return noSuchOverload("ip.isCanonical");
    Addr addr;
    std::string error;
    if (!parseAddr(a[0].str(), &addr, &error))
        return Value::error(error);
    return Value::boolean(formatAddr(addr) == a[0].str());
}

BUILTIN(ipFamily)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::IP)
        return noSuchOverload("family");
    return Value::integer(addrOf(a[0]).family);
}

BUILTIN(ipPredicate)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::IP)
        return noSuchOverload(call.name);
    Addr x = addrOf(a[0]);
    const uint8_t* b = x.bytes;
    bool v4 = x.family == 4;
    bool unspecified = true;
    for (int k = 0; k < (v4 ? 4 : 16); ++k)
        unspecified = unspecified && b[k] == 0;
    bool loopback
        = v4 ? b[0] == 127 : (std::all_of(b, b + 15, [](uint8_t c) { return c == 0; }) && b[15] == 1);
    bool linkLocalUnicast = v4 ? (b[0] == 169 && b[1] == 254) : (b[0] == 0xFE && (b[1] & 0xC0) == 0x80);
    bool linkLocalMulticast
        = v4 ? (b[0] == 224 && b[1] == 0 && b[2] == 0) : (b[0] == 0xFF && (b[1] & 0x0F) == 0x02);
    bool multicast = v4 ? (b[0] & 0xF0) == 0xE0 : b[0] == 0xFF;
    bool broadcast = v4 && b[0] == 255 && b[1] == 255 && b[2] == 255 && b[3] == 255;
    const std::string& f = call.name;
    if (f == "isUnspecified")
        return Value::boolean(unspecified);
    if (f == "isLoopback")
        return Value::boolean(loopback);
    if (f == "isLinkLocalMulticast")
        return Value::boolean(linkLocalMulticast);
    if (f == "isLinkLocalUnicast")
        return Value::boolean(linkLocalUnicast);
    if (f == "isGlobalUnicast")
        return Value::boolean(!unspecified && !loopback && !multicast && !linkLocalUnicast && !broadcast);
    return noSuchOverload(f);
}

BUILTIN(cidr)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::String)
        return noSuchOverload("cidr");
    Addr addr;
    int prefix = 0;
    std::string error;
    if (!parseCidr(a[0].str(), &addr, &prefix, &error))
        return Value::error(error);
    return ipValue(addr, Kind::CIDR, prefix);
}

BUILTIN(isCIDR)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::String)
        return noSuchOverload("isCIDR");
    Addr addr;
    int prefix = 0;
    std::string error;
    return Value::boolean(parseCidr(a[0].str(), &addr, &prefix, &error));
}

BUILTIN(containsIP)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::CIDR)
        return noSuchOverload("containsIP");
    Value other = a[1];
    if (other.kind == Kind::String) {
        other = ip(ctx, &a[1], 1, call);
        if (other.isError())
            return other;
    }
    if (other.kind != Kind::IP)
        return noSuchOverload("containsIP");
    return Value::boolean(containsAddr(addrOf(a[0]), prefixOf(a[0]), addrOf(other)));
}

BUILTIN(containsCIDR)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::CIDR)
        return noSuchOverload("containsCIDR");
    Value other = a[1];
    if (other.kind == Kind::String) {
        other = cidr(ctx, &a[1], 1, call);
        if (other.isError())
            return other;
    }
    if (other.kind != Kind::CIDR)
        return noSuchOverload("containsCIDR");
    return Value::boolean(
        prefixOf(other) >= prefixOf(a[0]) && containsAddr(addrOf(a[0]), prefixOf(a[0]), addrOf(other)));
}

BUILTIN(cidrIP)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::CIDR)
        return noSuchOverload("ip");
    return ipValue(addrOf(a[0]));
}

BUILTIN(cidrMasked)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::CIDR)
        return noSuchOverload("masked");
    return ipValue(masked(addrOf(a[0]), prefixOf(a[0])), Kind::CIDR, prefixOf(a[0]));
}

BUILTIN(prefixLength)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::CIDR)
        return noSuchOverload("prefixLength");
    return Value::integer(prefixOf(a[0]));
}

#undef BUILTIN
#undef UNUSED_ARGS

} // namespace impl

} // namespace drasim::cel
