// SPDX-License-Identifier: Apache-2.0
// string.format (cel-go strings extension, version 2, as Kubernetes configures it) and its
// compile-time check. The clause semantics, error texts and argument order follow cel-go's
// formatter; fixed-point and scientific clauses follow the en_US number printer it uses.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/cel/ast.h"
#include "core/cel/builtin_impls.h"
#include "core/cel/builtins.h"
#include "core/cel/format_check.h"
#include "core/cel/format_double.h"
#include "core/cel/interpreter.h"
#include "core/cel/text_chars.h"
#include "core/cel/time_util.h"

namespace drasim::cel {
namespace {

// ---------------------------------------------------------------- Go's strconv.Quote

/// Decodes the code point at s[i]; 0 length means an invalid byte.
uint32_t decodeValid(std::string_view s, size_t i, size_t* len)
{
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char c = byte(i);
    *len = 1;
    if (c < 0x80)
        return c;
    size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    if (n == 0 || i + n > s.size()) {
        *len = 0;
        return c;
    }
    uint32_t cp = c & (0x7F >> n);
    for (size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) {
            *len = 0;
            return c;
        }
        cp = (cp << 6) | (byte(i + k) & 0x3F);
    }
    const uint32_t minimum[] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (cp < minimum[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        *len = 0;
        return c;
    }
    *len = n;
    return cp;
}

/// strconv.IsPrint for the code points a quoted string may meet: controls, spaces other than
/// ' ', line and paragraph separators, format characters, private use and noncharacters are
/// not printable. (Unassigned code points are taken as printable.)
bool goIsPrint(uint32_t r)
{
    if (r < 0x20 || r == 0x7F || (r >= 0x80 && r <= 0xA0) || r == 0xAD)
        return false;
    static const uint32_t kRanges[][2] = { { 0x600, 0x605 }, { 0x61C, 0x61C }, { 0x6DD, 0x6DD },
        { 0x70F, 0x70F }, { 0x890, 0x891 }, { 0x8E2, 0x8E2 }, { 0x1680, 0x1680 }, { 0x180E, 0x180E },
        { 0x2000, 0x200F }, { 0x2028, 0x202F }, { 0x205F, 0x2064 }, { 0x2066, 0x206F }, { 0x3000, 0x3000 },
        { 0xE000, 0xF8FF }, { 0xFDD0, 0xFDEF }, { 0xFEFF, 0xFEFF }, { 0xFFF9, 0xFFFB }, { 0xFFFE, 0xFFFF },
        { 0x110BD, 0x110BD }, { 0x110CD, 0x110CD }, { 0x13430, 0x1343F }, { 0x1BCA0, 0x1BCA3 },
        { 0x1D173, 0x1D17A }, { 0xE0001, 0xE0001 }, { 0xE0020, 0xE007F }, { 0xF0000, 0x10FFFF } };
    for (const auto& range : kRanges) {
        if (r >= range[0] && r <= range[1])
            return false;
    }
    return (r & 0xFFFE) != 0xFFFE;
}

std::string goQuote(std::string_view s)
{
    std::string out = "\"";
    char buf[16];
    for (size_t i = 0; i < s.size();) {
        size_t len = 0;
        uint32_t r = decodeValid(s, i, &len);
        if (len == 0) {
            std::snprintf(buf, sizeof buf, "\\x%02x", r);
            out += buf;
            ++i;
            continue;
        }
        i += len;
        if (r == '"' || r == '\\') {
            out += '\\';
            out += char(r);
            continue;
        }
        if (goIsPrint(r)) {
            appendUtf8(out, r);
            continue;
        }
        switch (r) {
        case '\a':
            out += "\\a";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\v':
            out += "\\v";
            break;
        default:
            std::snprintf(buf, sizeof buf,
                r < ' ' || r == 0x7F ? "\\x%02x"
                    : r < 0x10000    ? "\\u%04x"
                                     : "\\U%08x",
                r);
            out += buf;
        }
    }
    return out + "\"";
}

// ---------------------------------------------------------------- the en_US number printer

std::string printfDouble(const char* verb, int precision, double d)
{
    std::string fmt = std::string("%.*") + verb;
    int n = std::snprintf(nullptr, 0, fmt.c_str(), precision, d);
    std::string out(size_t(n) + 1, '\0');
    std::snprintf(out.data(), out.size(), fmt.c_str(), precision, d);
    out.resize(size_t(n));
    return out;
}

const char* nonFinite(double d)
{
    if (std::isnan(d))
        return "NaN";
    if (std::isinf(d))
        return d > 0 ? "\xe2\x88\x9e" : "-\xe2\x88\x9e"; // ∞
    return nullptr;
}

/// "%.Nf" with the integer digits grouped by three: "1,234.500000".
std::string fixedText(double d, int precision)
{
    if (const char* s = nonFinite(d))
        return s;
    std::string plain = printfDouble("f", precision, d);
    size_t start = plain[0] == '-' ? 1 : 0;
    size_t end = plain.find('.');
    if (end == std::string::npos)
        end = plain.size();
    for (size_t at = end; at > start + 3; at -= 3)
        plain.insert(at - 3, 1, ',');
    return plain;
}

/// "1.052033 × 10⁰³": narrow no-break spaces around ×, a superscript exponent of two digits or more.
std::string scientificText(double d, int precision)
{
    if (const char* s = nonFinite(d))
        return s;
    std::string plain = printfDouble("e", precision, d);
    size_t e = plain.find('e');
    int exponent = std::atoi(plain.c_str() + e + 1);
    std::string out = plain.substr(0, e)
        + "\xe2\x80\xaf\xc3\x97\xe2\x80\xaf"
          "10";
    if (exponent < 0)
        out += "\xe2\x81\xbb"; // superscript minus
    std::string digits = std::to_string(std::abs(exponent));
    if (digits.size() < 2)
        digits.insert(0, 1, '0');
    static const char* const kSuperscript[] = { "\xe2\x81\xb0", "\xc2\xb9", "\xc2\xb2", "\xc2\xb3",
        "\xe2\x81\xb4", "\xe2\x81\xb5", "\xe2\x81\xb6", "\xe2\x81\xb7", "\xe2\x81\xb8", "\xe2\x81\xb9" };
    for (char c : digits)
        out += kSuperscript[c - '0'];
    return out;
}

// ---------------------------------------------------------------- clauses

const char* const kStringClauseError
    = "string clause can only be used on strings, bools, bytes, ints, doubles, "
      "maps, lists, types, durations, and timestamps, was given ";

bool formatMember(EvalContext& ctx, const Value& v, std::string& out, std::string& err);

bool bytesAsString(const Value& v, std::string& out, std::string& err)
{
    std::string_view s = v.str();
    for (size_t i = 0; i < s.size();) {
        size_t len = 0;
        decodeValid(s, i, &len);
        if (len == 0) {
            err = "invalid UTF-8 in bytes, cannot convert to string";
            return false;
        }
        i += len;
    }
    out = std::string(s);
    return true;
}

/// cel-go's FormatString: the %s clause at top level.
bool formatString(EvalContext& ctx, const Value& v, std::string& out, std::string& err)
{
    switch (v.kind) {
    case Kind::String:
        out = std::string(v.str());
        return true;
    case Kind::Bytes:
        return bytesAsString(v, out, err);
    case Kind::Bool:
        out = v.b ? "true" : "false";
        return true;
    case Kind::Int:
        out = std::to_string(v.i);
        return true;
    case Kind::Uint:
        out = std::to_string(v.u);
        return true;
    case Kind::Double:
        out = formatDouble(v.d);
        return true;
    case Kind::Null:
        out = "null";
        return true;
    case Kind::Type:
        out = std::string(v.str());
        return true;
    case Kind::Timestamp:
        out = formatTimestamp(v.i, int32_t(v.n));
        return true;
    case Kind::Duration:
        out = formatDuration(v.i);
        return true;
    case Kind::List:
    case Kind::Map:
    case Kind::DeviceMaps:
    case Kind::DeviceDomain:
        return formatMember(ctx, v, out, err);
    default:
        err = kStringClauseError + std::string(typeName(v));
        return false;
    }
}

bool formatMapText(EvalContext& ctx, const Value& v, std::string& out, std::string& err)
{
    Value m = materialize(ctx, v);
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const auto& [k, e] : m.mapData().entries) {
        std::string key, value;
        if (k.kind == Kind::String)
            key = goQuote(k.str());
        else if (k.kind == Kind::Bool)
            key = k.b ? "true" : "false";
        else if (k.kind == Kind::Int)
            key = std::to_string(k.i);
        else if (k.kind == Kind::Uint)
            key = std::to_string(k.u);
        else {
            err = "no formatting function for map key of type " + std::string(typeName(k));
            return false;
        }
        if (!formatMember(ctx, e, value, err))
            return false;
        pairs.emplace_back(std::move(key), std::move(value));
    }
    std::stable_sort(
        pairs.begin(), pairs.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    out = "{";
    for (size_t i = 0; i < pairs.size(); ++i)
        out += (i ? ", " : "") + pairs[i].first + ":" + pairs[i].second;
    out += "}";
    return true;
}

/// A value inside a list or map: printed as a CEL literal (cel-go's clauseForType + quoteForCEL).
bool formatMember(EvalContext& ctx, const Value& v, std::string& out, std::string& err)
{
    switch (v.kind) {
    case Kind::String:
        out = goQuote(v.str());
        return true;
    case Kind::Bytes:
        if (!bytesAsString(v, out, err))
            return false;
        out = "b" + goQuote(out);
        return true;
    case Kind::Double: {
        // Go's "%.6f": infinities and NaN are written +Inf, -Inf, NaN and then quoted.
        if (std::isnan(v.d) || std::isinf(v.d))
            out = goQuote(std::isnan(v.d) ? "NaN" : v.d > 0 ? "+Inf" : "-Inf");
        else
            out = printfDouble("f", 6, v.d);
        return true;
    }
    case Kind::Timestamp:
        out = "timestamp(" + goQuote(formatTimestamp(v.i, int32_t(v.n))) + ")";
        return true;
    case Kind::Duration:
        out = "duration(" + goQuote(formatDuration(v.i)) + ")";
        return true;
    case Kind::List: {
        out = "[";
        bool first = true;
        for (const auto& e : v.listData()) {
            std::string item;
            if (!formatMember(ctx, e, item, err))
                return false;
            out += (first ? "" : ", ") + item;
            first = false;
        }
        out += "]";
        return true;
    }
    case Kind::Map:
    case Kind::DeviceMaps:
    case Kind::DeviceDomain:
        return formatMapText(ctx, v, out, err);
    case Kind::Int:
    case Kind::Uint:
    case Kind::Bool:
    case Kind::Null:
    case Kind::Type:
        return formatString(ctx, v, out, err);
    default:
        err = "no formatting function for " + std::string(typeName(v));
        return false;
    }
}

/// The double a fixed-point or scientific clause formats ("NaN", "Infinity" and "-Infinity"
/// strings are accepted too); false when the clause does not apply.
bool clauseDouble(const Value& v, double* d)
{
    if (v.kind == Kind::Double) {
        *d = v.d;
        return true;
    }
    if (v.kind != Kind::String)
        return false;
    std::string_view s = v.str();
    if (s == "NaN")
        *d = std::nan("");
    else if (s == "Infinity")
        *d = HUGE_VAL;
    else if (s == "-Infinity")
        *d = -HUGE_VAL;
    else
        return false;
    return true;
}

std::string integerInBase(const Value& v, int base, bool upper)
{
    const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    bool negative = v.kind == Kind::Int && v.i < 0;
    uint64_t x = v.kind == Kind::Uint ? v.u : negative ? uint64_t(0) - uint64_t(v.i) : uint64_t(v.i);
    std::string out;
    do {
        out.insert(out.begin(), digits[x % uint64_t(base)]);
        x /= uint64_t(base);
    } while (x);
    return negative ? "-" + out : out;
}

/// One clause applied to its argument; false with err set (cel-go's wording) when it does not apply.
bool applyClause(
    EvalContext& ctx, char verb, int precision, const Value& v, std::string& out, std::string& err)
{
    const std::string given = std::string(typeName(v));
    const bool integer = v.kind == Kind::Int || v.kind == Kind::Uint;
    double d = 0;
    switch (verb) {
    case 's':
        return formatString(ctx, v, out, err);
    case 'd':
        if (integer)
            out = integerInBase(v, 10, false);
        else
            err = "decimal clause can only be used on integers, was given " + given;
        return integer;
    case 'f':
    case 'e':
        if (!clauseDouble(v, &d)) {
            err = std::string(verb == 'f' ? "fixed-point" : "scientific")
                + " clause can only be used on doubles, was given " + given;
            return false;
        }
        precision = std::min(precision < 0 ? 6 : precision, 1000);
        out = verb == 'f' ? fixedText(d, precision) : scientificText(d, precision);
        return true;
    case 'b':
        if (v.kind == Kind::Bool)
            out = v.b ? "1" : "0";
        else if (integer)
            out = integerInBase(v, 2, false);
        else
            err = "only integers and bools can be formatted as binary, was given " + given;
        return integer || v.kind == Kind::Bool;
    case 'o':
        if (integer)
            out = integerInBase(v, 8, false);
        else
            err = "octal clause can only be used on integers, was given " + given;
        return integer;
    default: // 'x', 'X'
        if (integer) {
            out = integerInBase(v, 16, verb == 'X');
            return true;
        }
        if (v.kind == Kind::String || v.kind == Kind::Bytes) {
            out.clear();
            for (unsigned char c : v.str()) {
                Value byte = Value::uinteger(c);
                std::string h = integerInBase(byte, 16, verb == 'X');
                out += (h.size() < 2 ? "0" : "") + h;
            }
            return true;
        }
        err = "only integers, byte buffers, and strings can be formatted as hex, was given " + given;
        return false;
    }
}

/// The clause at f[i] (just after '%'): its verb and precision, or a parse error.
bool parseClause(std::string_view f, size_t& i, char* verb, int* precision, std::string& err)
{
    *precision = -1;
    if (f[i] == '.') {
        size_t digits = ++i;
        while (i < f.size() && f[i] >= '0' && f[i] <= '9')
            ++i;
        if (i >= f.size()) {
            err = "could not parse formatting clause: error while parsing precision: could not find end of "
                  "precision specifier";
            return false;
        }
        if (i == digits) {
            err = "could not parse formatting clause: error while parsing precision: error while converting "
                  "precision to integer: strconv.Atoi: parsing \"\": invalid syntax";
            return false;
        }
        *precision = int(std::min<size_t>(
            std::stoull(std::string(f.substr(digits, std::min<size_t>(i - digits, 9)))), 1000000));
    }
    *verb = f[i];
    if (std::string_view("sdfebxXo").find(*verb) == std::string_view::npos) {
        std::string clause;
        appendUtf8(clause, static_cast<unsigned char>(*verb));
        err = "could not parse formatting clause: unrecognized formatting clause \"" + clause + "\"";
        return false;
    }
    ++i;
    return true;
}

} // namespace

namespace impl {

Value format(EvalContext& ctx, const Value* a, size_t n, const Node& call)
{
    (void)n;
    (void)call;
    if (a[0].kind != Kind::String || a[1].kind != Kind::List)
        return noSuchOverload("format");
    std::string_view f = a[0].str();
    const auto& args = a[1].listData();
    std::string out;
    size_t next = 0;
    for (size_t i = 0; i < f.size();) {
        if (f[i] != '%') {
            out += f[i++];
            continue;
        }
        if (i + 1 < f.size() && f[i + 1] == '%') {
            out += '%';
            i += 2;
            continue;
        }
        if (next >= args.size())
            return Value::error("index " + std::to_string(next) + " out of range");
        if (i + 1 >= f.size())
            return Value::error("unexpected end of string");
        ++i;
        char verb = 0;
        int precision = -1;
        std::string text, err;
        if (!parseClause(f, i, &verb, &precision, err))
            return Value::error(err);
        if (!applyClause(ctx, verb, precision, args[next++], text, err))
            return Value::error("error during formatting: " + err);
        out += text;
    }
    return Value::string(std::move(out));
}

} // namespace impl

// ---------------------------------------------------------------- compile-time check

namespace {

/// The node as written: a folded constant keeps the expression it replaced as its child.
const Node& written(const Node& n)
{
    return n.kind == NodeKind::Literal && !n.args.empty() ? *n.args[0] : n;
}

std::string staticTypeName(const CelType& t)
{
    using K = CelType::K;
    switch (t.k) {
    case K::Null:
        return "null_type";
    case K::Timestamp:
        return "google.protobuf.Timestamp";
    case K::Duration:
        return "google.protobuf.Duration";
    case K::Quantity:
        return "kubernetes.Quantity";
    case K::Semver:
        return "kubernetes.Semver";
    case K::Optional:
        return "optional_type";
    case K::IP:
        return "net.IP";
    case K::CIDR:
        return "net.CIDR";
    case K::URL:
        return "kubernetes.URL";
    default: {
        std::string s = t.toString();
        return s.substr(0, s.find('('));
    }
    }
}

/// The %s check: a printable static type, recursively into list and map literals. Returns the
/// offending node or null.
const Node* unprintable(const Node& n)
{
    using K = CelType::K;
    static const K kPrintable[] = { K::Dyn, K::List, K::Map, K::Int, K::Uint, K::Double, K::Bool, K::String,
        K::Timestamp, K::Bytes, K::Duration, K::Type, K::Null };
    const Node& w = written(n);
    if (std::find(std::begin(kPrintable), std::end(kPrintable), n.type.k) == std::end(kPrintable))
        return &n;
    if (w.kind == NodeKind::List || w.kind == NodeKind::Map) {
        for (const auto& e : w.args) {
            if (const Node* bad = unprintable(*e))
                return bad;
        }
    }
    return nullptr;
}

std::string clauseTypeError(char verb, const Node& arg)
{
    using K = CelType::K;
    const K k = arg.type.k;
    const auto oneOf = [&](std::initializer_list<K> ks) {
        return k == K::Dyn || std::find(ks.begin(), ks.end(), k) != ks.end();
    };
    const std::string given = staticTypeName(arg.type);
    switch (verb) {
    case 's':
        if (const Node* bad = unprintable(arg))
            return kStringClauseError + staticTypeName(bad->type);
        return "";
    case 'd':
        return oneOf({ K::Int, K::Uint }) ? ""
                                          : "decimal clause can only be used on integers, was given " + given;
    case 'f':
        return oneOf({ K::Double, K::String })
            ? ""
            : "fixed-point clause can only be used on doubles, was given " + given;
    case 'e':
        return oneOf({ K::Double, K::String })
            ? ""
            : "scientific clause can only be used on doubles, was given " + given;
    case 'b':
        return oneOf({ K::Int, K::Uint, K::Bool })
            ? ""
            : "only integers and bools can be formatted as binary, was given " + given;
    case 'o':
        return oneOf({ K::Int, K::Uint }) ? ""
                                          : "octal clause can only be used on integers, was given " + given;
    default:
        return oneOf({ K::Int, K::Uint, K::String, K::Bytes })
            ? ""
            : "only integers, byte buffers, and strings can be formatted as hex, was given " + given;
    }
}

} // namespace

std::string checkFormatCall(const Node& call)
{
    if (!call.hasReceiver || call.args.size() != 2)
        return "";
    const Node& target = *call.args[0];
    const Node& list = written(*call.args[1]);
    if (target.kind != NodeKind::Literal || !target.args.empty() || target.literal.kind != Kind::String
        || list.kind != NodeKind::List)
        return "";
    std::string_view f = target.literal.str();
    size_t requested = 0;
    for (size_t i = 0; i < f.size();) {
        if (f[i] != '%') {
            ++i;
            continue;
        }
        if (i + 1 < f.size() && f[i + 1] == '%') {
            i += 2;
            continue;
        }
        size_t index = requested++;
        if (i + 1 >= f.size())
            return "unexpected end of string";
        if (index >= list.args.size())
            return "index " + std::to_string(index) + " out of range";
        ++i;
        char verb = 0;
        int precision = -1;
        std::string err;
        if (!parseClause(f, i, &verb, &precision, err))
            return err;
        std::string typeError = clauseTypeError(verb, *list.args[index]);
        if (!typeError.empty())
            return "error during formatting: " + typeError;
    }
    if (list.args.size() > requested)
        return "too many arguments supplied to string.format (expected " + std::to_string(requested)
            + ", got " + std::to_string(list.args.size()) + ")";
    return "";
}

} // namespace drasim::cel
