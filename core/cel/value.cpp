// SPDX-License-Identifier: Apache-2.0
#include "core/cel/value.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/cel/format_double.h"
#include "core/cel/time_util.h"

namespace drasim::cel {

Value Value::string(std::string s, Kind kind)
{
    auto holder = std::make_shared<const std::string>(std::move(s));
    Value r;
    r.kind = kind;
    r.p = holder->data();
    r.n = holder->size();
    r.owner = std::move(holder);
    return r;
}

Value Value::typeValue(std::string_view staticName)
{
    Value r = stringView(staticName, Kind::Type);
    return r;
}

Value Value::list(ListData items)
{
    auto holder = std::make_shared<const ListData>(std::move(items));
    Value r;
    r.kind = Kind::List;
    r.p = holder.get();
    r.owner = std::move(holder);
    return r;
}

Value Value::map(MapData data)
{
    auto holder = std::make_shared<const MapData>(std::move(data));
    Value r;
    r.kind = Kind::Map;
    r.p = holder.get();
    r.owner = std::move(holder);
    return r;
}

Value Value::quantity(Quantity q)
{
    auto holder = std::make_shared<const Quantity>(std::move(q));
    Value r;
    r.kind = Kind::Quantity;
    r.p = holder.get();
    double approx = holder->asApproximateDouble();
    std::memcpy(&r.n, &approx, sizeof approx);
    r.aux = 1;
    r.owner = std::move(holder);
    return r;
}

double Value::quantityApprox() const
{
    if (aux != 1)
        return quantityValue().asApproximateDouble();
    double d;
    std::memcpy(&d, &n, sizeof d);
    return d;
}

Value Value::semver(SemVer v)
{
    auto holder = std::make_shared<const SemVer>(std::move(v));
    Value r;
    r.kind = Kind::Semver;
    r.p = holder.get();
    r.owner = std::move(holder);
    return r;
}

Value Value::optionalOf(Value v)
{
    auto holder = std::make_shared<const Value>(std::move(v));
    Value r;
    r.kind = Kind::Optional;
    r.p = holder.get();
    r.owner = std::move(holder);
    return r;
}

Value Value::error(std::string message)
{
    auto holder = std::make_shared<const std::string>(std::move(message));
    Value r;
    r.kind = Kind::Error;
    r.p = holder.get();
    r.owner = std::move(holder);
    return r;
}

std::string_view typeName(const Value& v)
{
    switch (v.kind) {
    case Kind::Null:
        return "null_type";
    case Kind::Bool:
        return "bool";
    case Kind::Int:
        return "int";
    case Kind::Uint:
        return "uint";
    case Kind::Double:
        return "double";
    case Kind::String:
        return "string";
    case Kind::Bytes:
        return "bytes";
    case Kind::List:
        return "list";
    case Kind::Map:
    case Kind::DeviceMaps:
    case Kind::DeviceDomain:
        return "map";
    case Kind::Type:
        return "type";
    case Kind::Quantity:
        return "kubernetes.Quantity";
    case Kind::Semver:
        return "kubernetes.Semver";
    case Kind::Optional:
        return "optional_type";
    case Kind::Timestamp:
        return "google.protobuf.Timestamp";
    case Kind::Duration:
        return "google.protobuf.Duration";
    case Kind::IP:
        return "net.IP";
    case Kind::CIDR:
        return "net.CIDR";
    case Kind::URL:
        return "kubernetes.URL";
    case Kind::Device:
        return "kubernetes.DRADevice";
    case Kind::Error:
        return "error";
    }
    return "unknown";
}

int compareQuantities(const Value& a, const Value& b)
{
    double x = a.quantityApprox();
    double y = b.quantityApprox();
    // Both approximations are within a few ulps of the exact values, so a relative gap far
    // above double precision decides the order; anything closer goes to the exact comparison.
    if (std::isfinite(x) && std::isfinite(y)
        && std::fabs(x - y) > 1e-9 * std::max(std::fabs(x), std::fabs(y)))
        return x < y ? -1 : 1;
    return a.quantityValue().compare(b.quantityValue());
}

int compareNumbers(const Value& a, const Value& b)
{
    auto cmp = [](auto x, auto y) { return x < y ? -1 : (x > y ? 1 : 0); };
    if (a.kind == b.kind) {
        switch (a.kind) {
        case Kind::Int:
            return cmp(a.i, b.i);
        case Kind::Uint:
            return cmp(a.u, b.u);
        default:
            if (std::isnan(a.d) || std::isnan(b.d))
                return 2;
            return cmp(a.d, b.d);
        }
    }
    // Mixed kinds: compare exactly on the number line (no lossy double conversion of int64).
    auto intVsUint = [&](int64_t x, uint64_t y) { return x < 0 ? -1 : cmp(uint64_t(x), y); };
    auto intVsDouble = [&](int64_t x, double y) {
        if (std::isnan(y))
            return 2;
        if (y >= 9223372036854775808.0)
            return -1;
        if (y < -9223372036854775808.0)
            return 1;
        double t = std::trunc(y);
        int64_t yi = int64_t(t);
        if (x != yi)
            return cmp(x, yi);
        return t == y ? 0 : (y > t ? -1 : 1);
    };
    auto uintVsDouble = [&](uint64_t x, double y) {
        if (std::isnan(y))
            return 2;
        if (y < 0)
            return 1;
        if (y >= 18446744073709551616.0)
            return -1;
        double t = std::trunc(y);
        uint64_t yu = uint64_t(t);
        if (x != yu)
            return cmp(x, yu);
        return t == y ? 0 : -1;
    };
    auto flip = [](int r) { return r == 2 ? 2 : -r; };
    if (a.kind == Kind::Int && b.kind == Kind::Uint)
        return intVsUint(a.i, b.u);
    if (a.kind == Kind::Uint && b.kind == Kind::Int)
        return flip(intVsUint(b.i, a.u));
    if (a.kind == Kind::Int && b.kind == Kind::Double)
        return intVsDouble(a.i, b.d);
    if (a.kind == Kind::Double && b.kind == Kind::Int)
        return flip(intVsDouble(b.i, a.d));
    if (a.kind == Kind::Uint && b.kind == Kind::Double)
        return uintVsDouble(a.u, b.d);
    return flip(uintVsDouble(b.u, a.d));
}

const Value* mapFind(const MapData& map, const Value& key)
{
    for (const auto& entry : map.entries) {
        Value eq = equals(entry.first, key);
        if (eq.kind == Kind::Bool && eq.b)
            return &entry.second;
    }
    return nullptr;
}

Value equals(const Value& a, const Value& b)
{
    if (a.isError())
        return a;
    if (b.isError())
        return b;
    if (a.isNumber() && b.isNumber())
        return Value::boolean(compareNumbers(a, b) == 0);
    // Kubernetes' Quantity and Semver types answer "no such overload" for foreign right operands.
    if ((a.kind == Kind::Quantity || a.kind == Kind::Semver) && b.kind != a.kind)
        return Value::error("no such overload");
    if (a.kind != b.kind)
        return Value::boolean(false);
    switch (a.kind) {
    case Kind::Null:
        return Value::boolean(true);
    case Kind::Bool:
        return Value::boolean(a.b == b.b);
    case Kind::String:
    case Kind::Bytes:
    case Kind::Type:
        return Value::boolean(a.str() == b.str());
    case Kind::Quantity:
        return Value::boolean(compareQuantities(a, b) == 0);
    case Kind::Semver:
        return Value::boolean(a.semverValue().compare(b.semverValue()) == 0);
    case Kind::Timestamp:
        return Value::boolean(a.i == b.i && a.n == b.n);
    case Kind::Duration:
        return Value::boolean(a.i == b.i);
    case Kind::IP:
    case Kind::CIDR:
        return Value::boolean(a.u == b.u && a.n == b.n && a.aux == b.aux);
    case Kind::URL:
        return Value::boolean(urlToString(a) == urlToString(b));
    case Kind::Optional: {
        const Value* x = a.optionalValue();
        const Value* y = b.optionalValue();
        if (!x || !y)
            return Value::boolean(x == y);
        return equals(*x, *y);
    }
    case Kind::List: {
        const auto& x = a.listData();
        const auto& y = b.listData();
        if (x.size() != y.size())
            return Value::boolean(false);
        Value firstError;
        bool sawError = false;
        for (size_t i = 0; i < x.size(); ++i) {
            Value e = equals(x[i], y[i]);
            if (e.isError()) {
                if (!sawError)
                    firstError = e;
                sawError = true;
            } else if (!e.b) {
                return Value::boolean(false);
            }
        }
        return sawError ? firstError : Value::boolean(true);
    }
    case Kind::Map: {
        const auto& x = a.mapData();
        const auto& y = b.mapData();
        if (x.entries.size() != y.entries.size())
            return Value::boolean(false);
        for (const auto& [k, v] : x.entries) {
            const Value* other = mapFind(y, k);
            if (!other)
                return Value::boolean(false);
            Value e = equals(v, *other);
            if (e.isError())
                return e;
            if (!e.b)
                return Value::boolean(false);
        }
        return Value::boolean(true);
    }
    default:
        return Value::boolean(false);
    }
}

namespace {

std::string quoteString(std::string_view s)
{
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            out += c;
        }
    }
    return out + "\"";
}

} // namespace

std::string debugString(const Value& v)
{
    switch (v.kind) {
    case Kind::Null:
        return "null";
    case Kind::Bool:
        return v.b ? "true" : "false";
    case Kind::Int:
        return std::to_string(v.i);
    case Kind::Uint:
        return std::to_string(v.u) + "u";
    case Kind::Double:
        return formatDouble(v.d);
    case Kind::String:
        return quoteString(v.str());
    case Kind::Bytes:
        return std::string(1, 'b').append(quoteString(v.str()));
    case Kind::Type:
        return std::string(v.str());
    case Kind::Quantity:
        return "quantity(\"" + v.quantityValue().toString() + "\")";
    case Kind::Semver:
        return "semver(\"" + v.semverValue().toString() + "\")";
    case Kind::Optional:
        return v.optionalValue() ? "optional.of(" + debugString(*v.optionalValue()) + ")" : "optional.none()";
    case Kind::Timestamp:
        return "timestamp(\"" + formatTimestamp(v.i, int32_t(v.n)) + "\")";
    case Kind::Duration:
        return "duration(\"" + formatDuration(v.i) + "\")";
    case Kind::IP:
        return "ip(\"" + netToString(v) + "\")";
    case Kind::CIDR:
        return "cidr(\"" + netToString(v) + "\")";
    case Kind::URL:
        return "url(\"" + urlToString(v) + "\")";
    case Kind::List: {
        std::string out = "[";
        bool first = true;
        for (const auto& e : v.listData()) {
            out += first ? "" : ", ";
            first = false;
            out += debugString(e);
        }
        return out + "]";
    }
    case Kind::Map: {
        std::string out = "{";
        bool first = true;
        for (const auto& [k, e] : v.mapData().entries) {
            out += first ? "" : ", ";
            first = false;
            out += debugString(k) + ": " + debugString(e);
        }
        return out + "}";
    }
    case Kind::DeviceMaps:
        return v.flag ? "device.capacity" : "device.attributes";
    case Kind::DeviceDomain:
        return std::string(v.flag ? "device.capacity[" : "device.attributes[") + quoteString(v.str()) + "]";
    case Kind::Device:
        return "device";
    case Kind::Error:
        return "error: " + v.errorMessage();
    }
    return "?";
}

} // namespace drasim::cel
