// SPDX-License-Identifier: Apache-2.0
// Operators, size, conversions and type(): the CEL standard definitions (cel.md §4-§6).
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/cel/builtin_impls.h"
#include "core/cel/builtins.h"
#include "core/cel/format_double.h"
#include "core/cel/interpreter.h"
#include "core/cel/runtime_cost.h"
#include "core/cel/time_util.h"

namespace drasim::cel {

Value noSuchOverload(std::string_view fn)
{
    (void)fn;
    return Value::error("no such overload");
}

size_t utf8Length(std::string_view s)
{
    // Code points = bytes minus continuation bytes (10xxxxxx), counted eight bytes at a time:
    // evaluation measures strings on its hot path (the cost of == is size-dependent).
    constexpr uint64_t kHigh = 0x8080808080808080ULL;
    size_t continuation = 0;
    size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        uint64_t w;
        std::memcpy(&w, s.data() + i, 8);
        if (w & kHigh)
            continuation += size_t(__builtin_popcountll(w & ~(w << 1) & kHigh));
    }
    for (; i < s.size(); ++i)
        continuation += (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80;
    return s.size() - continuation;
}

namespace impl {

namespace {

Value intOverflow()
{
    return Value::error("integer overflow");
}
Value uintOverflow()
{
    return Value::error("unsigned integer overflow");
}

bool validUtf8(std::string_view s)
{
    size_t i = 0;
    while (i < s.size()) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (len == 0 || i + size_t(len) > s.size())
            return false;
        uint32_t cp = len == 1 ? c : (c & (0x7F >> len));
        for (int k = 1; k < len; ++k) {
            unsigned char d = static_cast<unsigned char>(s[i + size_t(k)]);
            if ((d & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (d & 0x3F);
        }
        if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800)
            || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += size_t(len);
    }
    return true;
}

std::string goSyntaxError(const char* fn, std::string_view text, bool range)
{
    return std::string("strconv.") + fn + ": parsing \"" + std::string(text)
        + "\": " + (range ? "value out of range" : "invalid syntax");
}

/// Go strconv.ParseInt(s, 10, 64)/ParseUint: optional sign (int only), decimal digits only.
Value parseInteger(std::string_view s, bool isUnsigned)
{
    const char* fn = isUnsigned ? "ParseUint" : "ParseInt";
    std::string_view digits = s;
    bool negative = false;
    if (!isUnsigned && !digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
        negative = digits[0] == '-';
        digits.remove_prefix(1);
    }
    if (digits.empty())
        return Value::error(goSyntaxError(fn, s, false));
    for (char c : digits) {
        if (c < '0' || c > '9')
            return Value::error(goSyntaxError(fn, s, false));
    }
    unsigned long long mag = 0;
    auto r = std::from_chars(digits.data(), digits.data() + digits.size(), mag);
    if (r.ec == std::errc::result_out_of_range)
        return Value::error(goSyntaxError(fn, s, true));
    if (isUnsigned)
        return Value::uinteger(mag);
    if (mag > (negative ? 9223372036854775808ULL : 9223372036854775807ULL))
        return Value::error(goSyntaxError(fn, s, true));
    return Value::integer(negative ? int64_t(0 - mag) : int64_t(mag));
}

int orderValues(const Value& x, const Value& y, Value* err)
{
    if (x.isNumber() && y.isNumber()) {
        int c = compareNumbers(x, y);
        if (c == 2) {
            *err = Value::error("NaN values cannot be ordered");
            return 0;
        }
        return c;
    }
    if (x.kind != y.kind) {
        *err = noSuchOverload("_<_");
        return 0;
    }
    switch (x.kind) {
    case Kind::String:
    case Kind::Bytes: {
        int c = x.str().compare(y.str());
        return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case Kind::Bool:
        return int(x.b) - int(y.b);
    case Kind::Timestamp:
        if (x.i != y.i)
            return x.i < y.i ? -1 : 1;
        return x.n < y.n ? -1 : (x.n > y.n ? 1 : 0);
    case Kind::Duration:
        return x.i < y.i ? -1 : (x.i > y.i ? 1 : 0);
    default:
        *err = noSuchOverload("_<_");
        return 0;
    }
}

template <typename Pred> Value orderOp(const Value* a, Pred pred)
{
    Value err;
    int c = orderValues(a[0], a[1], &err);
    if (err.isError())
        return err;
    return Value::boolean(pred(c));
}

} // namespace

#define BUILTIN(fn) Value fn(EvalContext& ctx, const Value* a, size_t n, const Node& call)
#define UNUSED_ARGS                                                                                          \
    (void)ctx;                                                                                               \
    (void)n;                                                                                                 \
    (void)call

BUILTIN(add)
{
    UNUSED_ARGS;
    const Value& x = a[0];
    const Value& y = a[1];
    if (x.kind == Kind::Timestamp || x.kind == Kind::Duration)
        return timeArithmetic(x, y, false);
    if (x.kind != y.kind)
        return noSuchOverload("_+_");
    switch (x.kind) {
    case Kind::Int: {
        int64_t r;
        if (__builtin_add_overflow(x.i, y.i, &r))
            return intOverflow();
        return Value::integer(r);
    }
    case Kind::Uint: {
        uint64_t r;
        if (__builtin_add_overflow(x.u, y.u, &r))
            return uintOverflow();
        return Value::uinteger(r);
    }
    case Kind::Double:
        return Value::dbl(x.d + y.d);
    case Kind::String:
    case Kind::Bytes: {
        std::string s(x.str());
        s += y.str();
        return Value::string(std::move(s), x.kind);
    }
    case Kind::List: {
        ListData items = x.listData();
        items.insert(items.end(), y.listData().begin(), y.listData().end());
        return Value::list(std::move(items));
    }
    default:
        return noSuchOverload("_+_");
    }
}

BUILTIN(subtract)
{
    UNUSED_ARGS;
    const Value& x = a[0];
    const Value& y = a[1];
    if (x.kind == Kind::Timestamp || x.kind == Kind::Duration)
        return timeArithmetic(x, y, true);
    if (x.kind != y.kind)
        return noSuchOverload("_-_");
    switch (x.kind) {
    case Kind::Int: {
        int64_t r;
        if (__builtin_sub_overflow(x.i, y.i, &r))
            return intOverflow();
        return Value::integer(r);
    }
    case Kind::Uint: {
        uint64_t r;
        if (__builtin_sub_overflow(x.u, y.u, &r))
            return uintOverflow();
        return Value::uinteger(r);
    }
    case Kind::Double:
        return Value::dbl(x.d - y.d);
    default:
        return noSuchOverload("_-_");
    }
}

BUILTIN(multiply)
{
    UNUSED_ARGS;
    const Value& x = a[0];
    const Value& y = a[1];
    if (x.kind != y.kind)
        return noSuchOverload("_*_");
    switch (x.kind) {
    case Kind::Int: {
        int64_t r;
        if (__builtin_mul_overflow(x.i, y.i, &r))
            return intOverflow();
        return Value::integer(r);
    }
    case Kind::Uint: {
        uint64_t r;
        if (__builtin_mul_overflow(x.u, y.u, &r))
            return uintOverflow();
        return Value::uinteger(r);
    }
    case Kind::Double:
        return Value::dbl(x.d * y.d);
    default:
        return noSuchOverload("_*_");
    }
}

BUILTIN(divide)
{
    UNUSED_ARGS;
    const Value& x = a[0];
    const Value& y = a[1];
    if (x.kind != y.kind)
        return noSuchOverload("_/_");
    switch (x.kind) {
    case Kind::Int:
        if (y.i == 0)
            return Value::error("division by zero");
        if (x.i == INT64_MIN && y.i == -1)
            return intOverflow();
        return Value::integer(x.i / y.i);
    case Kind::Uint:
        if (y.u == 0)
            return Value::error("division by zero");
        return Value::uinteger(x.u / y.u);
    case Kind::Double:
        return Value::dbl(x.d / y.d);
    default:
        return noSuchOverload("_/_");
    }
}

BUILTIN(modulo)
{
    UNUSED_ARGS;
    const Value& x = a[0];
    const Value& y = a[1];
    if (x.kind != y.kind)
        return noSuchOverload("_%_");
    switch (x.kind) {
    case Kind::Int:
        if (y.i == 0)
            return Value::error("modulus by zero");
        if (x.i == INT64_MIN && y.i == -1)
            return intOverflow();
        return Value::integer(x.i % y.i);
    case Kind::Uint:
        if (y.u == 0)
            return Value::error("modulus by zero");
        return Value::uinteger(x.u % y.u);
    default:
        return noSuchOverload("_%_");
    }
}

BUILTIN(negate)
{
    UNUSED_ARGS;
    if (a[0].kind == Kind::Int) {
        if (a[0].i == INT64_MIN)
            return intOverflow();
        return Value::integer(-a[0].i);
    }
    if (a[0].kind == Kind::Double)
        return Value::dbl(-a[0].d);
    return noSuchOverload("-_");
}

BUILTIN(logicalNot)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::Bool)
        return noSuchOverload("!_");
    return Value::boolean(!a[0].b);
}

BUILTIN(equal)
{
    UNUSED_ARGS;
    // Strings, the selector hot path: compared in place, charged 0.1 x the smaller size.
    if (a[0].kind == Kind::String && a[1].kind == Kind::String) {
        if (call.costRule == CostRule::Equality)
            ctx.charge(stringEqualityCost(call, a[0], a[1]));
        return Value::boolean(
            a[0].n == a[1].n && std::memcmp(a[0].str().data(), a[1].str().data(), a[0].n) == 0);
    }
    if (call.costRule == CostRule::Equality)
        ctx.charge(dynamicCallCost(ctx, call, a, 2));
    bool lazy = a[0].kind == Kind::DeviceMaps || a[0].kind == Kind::DeviceDomain
        || a[1].kind == Kind::DeviceMaps || a[1].kind == Kind::DeviceDomain;
    if (lazy)
        return equals(materialize(ctx, a[0]), materialize(ctx, a[1]));
    return equals(a[0], a[1]);
}

BUILTIN(notEqual)
{
    Value r = equal(ctx, a, n, call);
    if (r.isError())
        return r;
    return Value::boolean(!r.b);
}

BUILTIN(less)
{
    UNUSED_ARGS;
    return orderOp(a, [](int c) { return c < 0; });
}
BUILTIN(lessEqual)
{
    UNUSED_ARGS;
    return orderOp(a, [](int c) { return c <= 0; });
}
BUILTIN(greater)
{
    UNUSED_ARGS;
    return orderOp(a, [](int c) { return c > 0; });
}
BUILTIN(greaterEqual)
{
    UNUSED_ARGS;
    return orderOp(a, [](int c) { return c >= 0; });
}

BUILTIN(in)
{
    UNUSED_ARGS;
    const Value& x = a[0];
    const Value& c = a[1];
    if (c.kind == Kind::DeviceMaps) {
        if (x.kind != Kind::String)
            return Value::boolean(false);
        Value m = materialize(ctx, c);
        return Value::boolean(mapFind(m.mapData(), x) != nullptr);
    }
    if (c.kind == Kind::DeviceDomain) {
        if (x.kind != Kind::String)
            return Value::boolean(false);
        Value ignored;
        return Value::boolean(lookupDeviceEntry(*ctx.device, c.flag, c.str(), x.str(), &ignored));
    }
    if (c.kind == Kind::List) {
        for (const auto& e : c.listData()) {
            Value eq = equals(x, e);
            if (eq.kind == Kind::Bool && eq.b)
                return eq;
        }
        return Value::boolean(false);
    }
    if (c.kind == Kind::Map)
        return Value::boolean(mapFind(c.mapData(), x) != nullptr);
    return noSuchOverload("@in");
}

BUILTIN(size)
{
    UNUSED_ARGS;
    const Value& x = a[0];
    switch (x.kind) {
    case Kind::String:
        return Value::integer(int64_t(utf8Length(x.str())));
    case Kind::Bytes:
        return Value::integer(int64_t(x.n));
    case Kind::List:
        return Value::integer(int64_t(x.listData().size()));
    case Kind::Map:
        return Value::integer(int64_t(x.mapData().entries.size()));
    case Kind::DeviceMaps:
    case Kind::DeviceDomain:
        return Value::integer(int64_t(materialize(ctx, x).mapData().entries.size()));
    default:
        return noSuchOverload("size");
    }
}

BUILTIN(toInt)
{
    UNUSED_ARGS;
    const Value& x = a[0];
    switch (x.kind) {
    case Kind::Int:
        return x;
    case Kind::Uint:
        if (x.u > uint64_t(INT64_MAX))
            return intOverflow();
        return Value::integer(int64_t(x.u));
    case Kind::Double:
        // Strictly inside the int64 range (cel-go rejects the boundaries, which round).
        if (!(x.d > -9223372036854775808.0 && x.d < 9223372036854775808.0))
            return intOverflow();
        return Value::integer(int64_t(x.d));
    case Kind::String:
        return parseInteger(x.str(), false);
    case Kind::Timestamp:
        return Value::integer(x.i);
    default:
        return noSuchOverload("int");
    }
}

BUILTIN(toUint)
{
    UNUSED_ARGS;
    const Value& x = a[0];
    switch (x.kind) {
    case Kind::Uint:
        return x;
    case Kind::Int:
        if (x.i < 0)
            return uintOverflow();
        return Value::uinteger(uint64_t(x.i));
    case Kind::Double:
        // cel-go accepts exactly 0 <= v < 2^64 (NaN and infinities fail the comparison): a
        // negative fraction such as -0.75 is an overflow rather than truncating to 0, while
        // -0.0 compares equal to 0 and converts to 0.
        if (!(x.d >= 0.0 && x.d < 18446744073709551616.0))
            return uintOverflow();
        return Value::uinteger(uint64_t(x.d));
    case Kind::String:
        return parseInteger(x.str(), true);
    default:
        return noSuchOverload("uint");
    }
}

BUILTIN(toDouble)
{
    UNUSED_ARGS;
    const Value& x = a[0];
    switch (x.kind) {
    case Kind::Double:
        return x;
    case Kind::Int:
        return Value::dbl(double(x.i));
    case Kind::Uint:
        return Value::dbl(double(x.u));
    case Kind::String: {
        std::string s(x.str());
        bool bad = s.empty() || std::isspace(static_cast<unsigned char>(s[0]));
        char* end = nullptr;
        errno = 0;
        double d = bad ? 0 : std::strtod(s.c_str(), &end);
        if (bad || end != s.c_str() + s.size())
            return Value::error(goSyntaxError("ParseFloat", s, false));
        if (errno == ERANGE && std::isinf(d))
            return Value::error(goSyntaxError("ParseFloat", s, true));
        return Value::dbl(d);
    }
    default:
        return noSuchOverload("double");
    }
}

BUILTIN(toString)
{
    UNUSED_ARGS;
    const Value& x = a[0];
    switch (x.kind) {
    case Kind::String:
        return x;
    case Kind::Bool:
        return Value::stringView(x.b ? "true" : "false");
    case Kind::Int:
        return Value::string(std::to_string(x.i));
    case Kind::Uint:
        return Value::string(std::to_string(x.u));
    case Kind::Double:
        return Value::string(formatDouble(x.d));
    case Kind::Bytes:
        if (!validUtf8(x.str()))
            return Value::error("invalid UTF-8 in bytes, cannot convert to string");
        return Value::string(std::string(x.str()));
    case Kind::Timestamp:
        return Value::string(formatTimestamp(x.i, int32_t(x.n)));
    case Kind::Duration:
        return Value::string(formatDuration(x.i));
    case Kind::IP:
    case Kind::CIDR:
        return Value::string(netToString(x));
    default:
        return noSuchOverload("string");
    }
}

BUILTIN(toBool)
{
    UNUSED_ARGS;
    const Value& x = a[0];
    if (x.kind == Kind::Bool)
        return x;
    if (x.kind != Kind::String)
        return noSuchOverload("bool");
    std::string_view s = x.str();
    if (s == "1" || s == "t" || s == "T" || s == "TRUE" || s == "true" || s == "True")
        return Value::boolean(true);
    if (s == "0" || s == "f" || s == "F" || s == "FALSE" || s == "false" || s == "False")
        return Value::boolean(false);
    return Value::error(goSyntaxError("ParseBool", s, false));
}

BUILTIN(toBytes)
{
    UNUSED_ARGS;
    const Value& x = a[0];
    if (x.kind == Kind::Bytes)
        return x;
    if (x.kind != Kind::String)
        return noSuchOverload("bytes");
    Value r = x;
    r.kind = Kind::Bytes;
    return r;
}

BUILTIN(toDyn)
{
    UNUSED_ARGS;
    return a[0];
}

BUILTIN(typeOf)
{
    UNUSED_ARGS;
    return Value::typeValue(typeName(a[0]));
}

#undef BUILTIN
#undef UNUSED_ARGS

} // namespace impl

} // namespace drasim::cel
