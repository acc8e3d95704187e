// SPDX-License-Identifier: Apache-2.0
// Kubernetes URL library (cel.md §7): url(s)/isURL(s) parse like Go's url.ParseRequestURI (an
// absolute URI or an absolute path; no fragment handling), and the getters return Go's fields.
#include <algorithm>
#include <cctype>
#include <memory>

#include "core/cel/builtin_impls.h"
#include "core/cel/builtins.h"
#include "core/cel/interpreter.h"
#include "core/cel/text_chars.h"

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

/// Go's url encoding modes that matter for parsing.
enum class Mode { Path, Host, Zone, UserPassword, QueryComponent };

/// Go's strconv.Quote of a short ASCII-or-byte sequence (error messages only).
std::string goQuoted(std::string_view s)
{
    static const char* hex = "0123456789abcdef";
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += char(c);
        } else if (c >= 0x20 && c < 0x7F) {
            out += char(c);
        } else {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out + "\"";
}

/// Go's shouldEscape for the host (and zone) mode: what may stand unescaped in a host.
bool hostSafe(char c)
{
    if (isAlpha(c) || isDigit(c))
        return true;
    return std::string_view("-_.~!$&'()*+,;=:[]<>\"").find(c) != std::string_view::npos;
}

/// Go's url.unescape: fails (with Go's message) on a malformed escape, on an escaped ASCII byte
/// in a host other than %25, and on a character a host may not contain.
bool unescape(std::string_view s, Mode mode, std::string* out, std::string* error = nullptr)
{
    auto fail = [&](std::string message) {
        if (error)
            *error = std::move(message);
        return false;
    };
    out->clear();
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '%') {
            if (i + 2 >= s.size() || hexVal(s[i + 1]) < 0 || hexVal(s[i + 2]) < 0)
                return fail("invalid URL escape " + goQuoted(s.substr(i, 3)));
            const int v = hexVal(s[i + 1]) * 16 + hexVal(s[i + 2]);
            const bool percent = s.substr(i, 3) == "%25";
            if (mode == Mode::Host && hexVal(s[i + 1]) < 8 && !percent)
                return fail("invalid URL escape " + goQuoted(s.substr(i, 3)));
            if (mode == Mode::Zone && !percent && v != ' ' && v < 0x80 && !hostSafe(char(v)))
                return fail("invalid URL escape " + goQuoted(s.substr(i, 3)));
            *out += char(v);
            i += 2;
        } else if (c == '+' && mode == Mode::QueryComponent) {
            *out += ' ';
        } else {
            if ((mode == Mode::Host || mode == Mode::Zone) && (unsigned char)c < 0x80 && !hostSafe(c))
                return fail("invalid character " + goQuoted(s.substr(i, 1)) + " in host name");
            *out += c;
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

/// Go's validEncoded for a path: only characters a path may carry as they are, or escapes.
bool validEncodedPath(std::string_view s)
{
    for (char c : s) {
        if (std::string_view("!$&'()*+,;=:@[]%").find(c) == std::string_view::npos && !pathSafe(c))
            return false;
    }
    return true;
}

/// Go's userinfo check: letters, digits and "-._:~!$&'()*+,;=%@" only.
bool validUserinfo(std::string_view s)
{
    for (char c : s) {
        if (!isAlpha(c) && !isDigit(c)
            && std::string_view("-._:~!$&'()*+,;=%@").find(c) == std::string_view::npos)
            return false;
    }
    return true;
}

bool validOptionalPort(std::string_view port)
{
    return port.empty() || (port[0] == ':' && std::all_of(port.begin() + 1, port.end(), isDigit));
}

/// Go's parseHost: host[:port], or [IPv6][:port] with an optional %25 zone.
bool parseHost(std::string_view host, std::string* out, std::string* why)
{
    if (host.starts_with("[")) {
        size_t close = host.rfind(']');
        if (close == std::string_view::npos) {
            *why = "missing ']' in host";
            return false;
        }
        if (!validOptionalPort(host.substr(close + 1))) {
            *why = "invalid port " + goQuoted(host.substr(close + 1)) + " after host";
            return false;
        }
        size_t zone = host.substr(0, close).find("%25");
        if (zone != std::string_view::npos) {
            std::string a, b, c;
            if (!unescape(host.substr(0, zone), Mode::Host, &a, why)
                || !unescape(host.substr(zone, close - zone), Mode::Zone, &b, why)
                || !unescape(host.substr(close), Mode::Host, &c, why))
                return false;
            *out = a + b + c;
            return true;
        }
    } else if (size_t colon = host.rfind(':'); colon != std::string_view::npos) {
        if (!validOptionalPort(host.substr(colon))) {
            *why = "invalid port " + goQuoted(host.substr(colon)) + " after host";
            return false;
        }
    }
    return unescape(host, Mode::Host, out, why);
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
        std::string why;
        if (!parseHost(host, &u->host, &why))
            return fail(why);
        if (at != std::string_view::npos) {
            std::string_view userinfo = authority.substr(0, at);
            if (!validUserinfo(userinfo))
                return fail("net/url: invalid userinfo");
            size_t colon = userinfo.find(':');
            std::string part;
            if (!unescape(userinfo.substr(0, colon), Mode::UserPassword, &part, &why)
                || (colon != std::string_view::npos
                    && !unescape(userinfo.substr(colon + 1), Mode::UserPassword, &part, &why)))
                return fail(why);
        }
    }
    std::string path, why;
    if (!unescape(rest, Mode::Path, &path, &why))
        return fail(why);
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
    if (f == "getEscapedPath") {
        // Go's EscapedPath: the path as written when it is validly encoded, "*" as it is,
        // otherwise the path escaped again.
        if (!u.rawPath.empty() && validEncodedPath(u.rawPath))
            return Value::string(u.rawPath);
        return Value::string(u.path == "*" ? u.path : escapePath(u.path));
    }
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
            if (!unescape(part.substr(0, eq), Mode::QueryComponent, &key)
                || !unescape(eq == std::string_view::npos ? std::string_view() : part.substr(eq + 1),
                    Mode::QueryComponent, &value))
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
