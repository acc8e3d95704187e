// SPDX-License-Identifier: Apache-2.0
// Kubernetes URL library (cel.md §7): url(s)/isURL(s) parse like Go's url.ParseRequestURI (an
// absolute URI or an absolute path; no fragment handling), and the getters return Go's fields.
#include <algorithm>
#include <cctype>
#include <memory>

#include "core/cel/builtin_impls.h"
#include "core/cel/builtins.h"
#include "core/cel/interpreter.h"

namespace drasim::cel {

namespace {

struct UrlData
{
    std::string text; ///< as given (string(url) returns it re-serialised; we keep the input)
    std::string scheme;
    std::string opaque;
    std::string host; ///< host[:port] as written, IPv6 in brackets
    std::string path; ///< unescaped
    std::string rawPath;
    std::string rawQuery;
};

bool isAlpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}
int hexVal(char c)
{
    if (isDigit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/// Go url.unescape; plusAsSpace for query components.
bool unescape(std::string_view s, bool plusAsSpace, std::string* out)
{
    out->clear();
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%') {
            if (i + 2 >= s.size())
                return false;
            int hi = hexVal(s[i + 1]), lo = hexVal(s[i + 2]);
            if (hi < 0 || lo < 0)
                return false;
            *out += char(hi * 16 + lo);
            i += 2;
        } else if (s[i] == '+' && plusAsSpace) {
            *out += ' ';
        } else {
            *out += s[i];
        }
    }
    return true;
}

/// Characters Go leaves unescaped in a path (shouldEscape with encodePath).
bool pathSafe(char c)
{
    if (isAlpha(c) || isDigit(c))
        return true;
    switch (c) {
    case '-':
    case '_':
    case '.':
    case '~':
    case '$':
    case '&':
    case '+':
    case ',':
    case '/':
    case ':':
    case ';':
    case '=':
    case '@':
        return true;
    default:
        return false;
    }
}

std::string escapePath(std::string_view s)
{
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (char c : s) {
        if (pathSafe(c)) {
            out += c;
        } else {
            out += '%';
            out += hex[(unsigned char)c >> 4];
            out += hex[(unsigned char)c & 15];
        }
    }
    return out;
}

bool parseUrl(std::string_view raw, UrlData* u, std::string* error)
{
    auto fail = [&](std::string_view why) {
        std::string message = "URL parse error during conversion from string: parse \"";
        message.append(raw).append("\": ").append(why);
        *error = std::move(message);
        return false;
    };
    for (char c : raw) {
        if ((unsigned char)c < 0x20 || c == 0x7F)
            return fail("net/url: invalid control character in URL");
    }
    if (raw.empty())
        return fail("empty url");
    u->text = std::string(raw);
    if (raw == "*") {
        u->path.assign(1, '*');
        return true;
    }
    std::string_view rest = raw;
    // Scheme: a letter followed by letters, digits, + - . up to ':'.
    for (size_t i = 0; i < raw.size(); ++i) {
        char c = raw[i];
        if (isAlpha(c))
            continue;
        if (isDigit(c) || c == '+' || c == '-' || c == '.') {
            if (i == 0)
                break;
            continue;
        }
        if (c == ':') {
            if (i == 0)
                return fail("missing protocol scheme");
            u->scheme = std::string(raw.substr(0, i));
            for (char& s : u->scheme)
                s = char(std::tolower((unsigned char)s));
            rest = raw.substr(i + 1);
        }
        break;
    }
    size_t q = rest.find('?');
    if (q != std::string_view::npos) {
        u->rawQuery = std::string(rest.substr(q + 1));
        rest = rest.substr(0, q);
    }
    if (!rest.starts_with("/")) {
        if (!u->scheme.empty()) {
            u->opaque = std::string(rest);
            return true;
        }
        return fail("invalid URI for request");
    }
    if (!u->scheme.empty() && rest.starts_with("//")) {
        std::string_view authority = rest.substr(2);
        size_t slash = authority.find('/');
        rest = slash == std::string_view::npos ? std::string_view() : authority.substr(slash);
        authority = authority.substr(0, slash);
        size_t at = authority.rfind('@');
        std::string_view host = at == std::string_view::npos ? authority : authority.substr(at + 1);
        if (host.starts_with("[")) {
            size_t close = host.find(']');
            if (close == std::string_view::npos)
                return fail("missing ']' in host");
            std::string_view port = host.substr(close + 1);
            if (!port.empty() && (port[0] != ':' || !std::all_of(port.begin() + 1, port.end(), isDigit)))
                return fail("invalid port \"" + std::string(port) + "\" after host");
        } else {
            size_t colon = host.rfind(':');
            if (colon != std::string_view::npos) {
                std::string_view port = host.substr(colon + 1);
                if (!std::all_of(port.begin(), port.end(), isDigit))
                    return fail("invalid port \"" + std::string(host.substr(colon)) + "\" after host");
            }
        }
        std::string unescaped;
        if (!unescape(host, false, &unescaped))
            return fail("invalid URL escape");
        u->host = unescaped;
    }
    std::string path;
    if (!unescape(rest, false, &path))
        return fail("invalid URL escape");
    u->path = path;
    if (escapePath(path) != rest)
        u->rawPath = std::string(rest);
    return true;
}

Value urlValue(UrlData data)
{
    auto holder = std::make_shared<const UrlData>(std::move(data));
    Value r;
    r.kind = Kind::URL;
    r.p = holder.get();
    r.owner = std::move(holder);
    return r;
}

const UrlData& urlOf(const Value& v)
{
    return *static_cast<const UrlData*>(v.p);
}

} // namespace

std::string urlToString(const Value& v)
{
    return urlOf(v).text;
}

namespace impl {

#define BUILTIN(fn) Value fn(EvalContext& ctx, const Value* a, size_t n, const Node& call)
#define UNUSED_ARGS                                                                                          \
    (void)ctx;                                                                                               \
    (void)n;                                                                                                 \
    (void)call

BUILTIN(url)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::String)
        return noSuchOverload("url");
    UrlData data;
    std::string error;
    if (!parseUrl(a[0].str(), &data, &error))
        return Value::error(error);
    return urlValue(std::move(data));
}

BUILTIN(isURL)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::String)
        return noSuchOverload("isURL");
    UrlData data;
    std::string error;
    return Value::boolean(parseUrl(a[0].str(), &data, &error));
}

BUILTIN(urlGetter)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::URL)
        return noSuchOverload(call.name);
    const UrlData& u = urlOf(a[0]);
    const std::string& f = call.name;
    if (f == "getScheme")
        return Value::string(u.scheme);
    if (f == "getHost")
        return Value::string(u.host);
    if (f == "getHostname" || f == "getPort") {
        std::string_view h = u.host;
        std::string_view hostname = h, port;
        if (h.starts_with("[")) {
            size_t close = h.find(']');
            hostname = h.substr(1, close - 1);
            if (close + 1 < h.size())
                port = h.substr(close + 2);
        } else if (size_t colon = h.rfind(':'); colon != std::string_view::npos) {
            hostname = h.substr(0, colon);
            port = h.substr(colon + 1);
        }
        return Value::string(std::string(f == "getHostname" ? hostname : port));
    }
    if (f == "getEscapedPath")
        return Value::string(u.rawPath.empty() ? escapePath(u.path) : u.rawPath);
    if (f == "getQuery") {
        // Go url.ParseQuery: '&'-separated key=value pairs, '+' as space; keys in first-seen order.
        MapData data;
        std::string_view q = u.rawQuery;
        while (!q.empty()) {
            size_t amp = q.find('&');
            std::string_view part = q.substr(0, amp);
            q = amp == std::string_view::npos ? std::string_view() : q.substr(amp + 1);
            if (part.empty() || part.find(';') != std::string_view::npos)
                continue;
            size_t eq = part.find('=');
            std::string key, value;
            if (!unescape(part.substr(0, eq), true, &key)
                || !unescape(
                    eq == std::string_view::npos ? std::string_view() : part.substr(eq + 1), true, &value))
                continue;
            Value k = Value::string(key);
            bool found = false;
            for (auto& [ek, ev] : data.entries) {
                if (ek.str() == key) {
                    ListData items = ev.listData();
                    items.push_back(Value::string(value));
                    ev = Value::list(std::move(items));
                    found = true;
                }
            }
            if (!found)
                data.entries.emplace_back(std::move(k), Value::list({ Value::string(value) }));
        }
        return Value::map(std::move(data));
    }
    return noSuchOverload(f);
}

#undef BUILTIN
#undef UNUSED_ARGS

} // namespace impl

} // namespace drasim::cel
