// SPDX-License-Identifier: Apache-2.0
// Kubernetes CEL libraries used by DRA selectors: quantity (cel.md §8), semver (§9), the lists
// and sets libraries, cel-go's lists extension, and optional values.
#include <algorithm>
#include <cmath>

#include "core/cel/builtin_impls.h"
#include "core/cel/builtins.h"
#include "core/cel/interpreter.h"

namespace drasim::cel {

namespace {

Value quantityArith(const Value* a, bool subtract)
{
    const char* fn = subtract ? "sub" : "add";
    if (a[0].kind != Kind::Quantity)
        return noSuchOverload(fn);
    Quantity other;
    if (a[1].kind == Kind::Int)
        other = Quantity::fromInt(a[1].i); // apimachinery NewQuantity(i, DecimalSI)
    else if (a[1].kind == Kind::Quantity)
        other = a[1].effectiveQuantity();
    else
        return noSuchOverload(fn);
    // Quantity::add/sub follow apimachinery's int64-amount/decimal forms, so asInteger() on the
    // result behaves like Kubernetes.
    Quantity base = a[0].effectiveQuantity();
    return Value::quantity(subtract ? base.sub(other) : base.add(other));
}

Value compareValues(const Value* a, const char* fn, int* out)
{
    if (a[0].kind == Kind::Quantity && a[1].kind == Kind::Quantity) {
        *out = compareQuantities(a[0], a[1]);
        return {};
    }
    if (a[0].kind == Kind::Semver && a[1].kind == Kind::Semver) {
        *out = a[0].semverValue().compare(a[1].semverValue());
        return {};
    }
    return noSuchOverload(fn);
}

bool isZeroValue(const Value& v)
{
    switch (v.kind) {
    case Kind::Null:
        return true;
    case Kind::Bool:
        return !v.b;
    case Kind::Int:
        return v.i == 0;
    case Kind::Uint:
        return v.u == 0;
    case Kind::Double:
        return v.d == 0;
    case Kind::String:
    case Kind::Bytes:
        return v.n == 0;
    case Kind::List:
        return v.listData().empty();
    case Kind::Map:
        return v.mapData().entries.empty();
    default:
        return false;
    }
}

/// Orders two list elements for sort/min/max/isSorted; false when they are not comparable.
bool lessThan(const Value& x, const Value& y, bool* ok)
{
    *ok = true;
    if (x.isNumber() && y.isNumber()) {
        int c = compareNumbers(x, y);
        if (c == 2) {
            *ok = false;
            return false;
        }
        return c < 0;
    }
    if (x.kind != y.kind) {
        *ok = false;
        return false;
    }
    switch (x.kind) {
    case Kind::String:
    case Kind::Bytes:
        return x.str() < y.str();
    case Kind::Bool:
        return !x.b && y.b;
    case Kind::Quantity:
        return compareQuantities(x, y) < 0;
    case Kind::Semver:
        return x.semverValue().compare(y.semverValue()) < 0;
    case Kind::Timestamp:
        return x.i < y.i || (x.i == y.i && x.n < y.n);
    case Kind::Duration:
        return x.i < y.i;
    default:
        *ok = false;
        return false;
    }
}

bool listContains(const ListData& list, const Value& v)
{
    for (const auto& e : list) {
        Value eq = equals(e, v);
        if (eq.kind == Kind::Bool && eq.b)
            return true;
    }
    return false;
}

} // namespace

Value quantityFromString(std::string_view text)
{
    std::string error;
    auto q = Quantity::parse(text, &error);
    if (!q)
        return Value::error(error.empty() ? "quantities must match the regular expression "
                                            "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
                                          : error);
    return Value::quantity(std::move(*q));
}

Value semverFromString(std::string_view text, bool normalize)
{
    std::string error;
    auto v = SemVer::parse(text, normalize, &error);
    if (!v)
        return Value::error(error.empty() ? "invalid semver: " + std::string(text) : error);
    return Value::semver(std::move(*v));
}

bool quantityAsInteger(const Value& q, int64_t* out)
{
    auto v = q.effectiveQuantity().kubernetesAsInt64();
    if (!v)
        return false;
    *out = *v;
    return true;
}

namespace impl {

#define BUILTIN(fn) Value fn(EvalContext& ctx, const Value* a, size_t n, const Node& call)
#define UNUSED_ARGS                                                                                          \
    (void)ctx;                                                                                               \
    (void)n;                                                                                                 \
    (void)call

BUILTIN(quantity)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::String)
        return noSuchOverload("quantity");
    return quantityFromString(a[0].str());
}

BUILTIN(isQuantity)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::String)
        return noSuchOverload("isQuantity");
    return Value::boolean(Quantity::parse(a[0].str()).has_value());
}

BUILTIN(compareTo)
{
    UNUSED_ARGS;
    int c = 0;
    Value err = compareValues(a, "compareTo", &c);
    if (err.isError())
        return err;
    return Value::integer(c);
}

BUILTIN(isGreaterThan)
{
    UNUSED_ARGS;
    int c = 0;
    Value err = compareValues(a, "isGreaterThan", &c);
    if (err.isError())
        return err;
    return Value::boolean(c > 0);
}

BUILTIN(isLessThan)
{
    UNUSED_ARGS;
    int c = 0;
    Value err = compareValues(a, "isLessThan", &c);
    if (err.isError())
        return err;
    return Value::boolean(c < 0);
}

BUILTIN(quantityAdd)
{
    UNUSED_ARGS;
    return quantityArith(a, false);
}

BUILTIN(quantitySub)
{
    UNUSED_ARGS;
    return quantityArith(a, true);
}

BUILTIN(asInteger)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::Quantity)
        return noSuchOverload("asInteger");
    int64_t v = 0;
    if (!quantityAsInteger(a[0], &v))
        return Value::error("cannot convert value to integer");
    return Value::integer(v);
}

BUILTIN(isInteger)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::Quantity)
        return noSuchOverload("isInteger");
    int64_t v = 0;
    return Value::boolean(quantityAsInteger(a[0], &v));
}

BUILTIN(asApproximateFloat)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::Quantity)
        return noSuchOverload("asApproximateFloat");
    return Value::dbl(a[0].quantityValue().asApproximateDouble());
}

BUILTIN(sign)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::Quantity)
        return noSuchOverload("sign");
    return Value::integer(a[0].quantityValue().sign());
}

BUILTIN(semver)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::String || (n == 2 && a[1].kind != Kind::Bool))
        return noSuchOverload("semver");
    return semverFromString(a[0].str(), n == 2 && a[1].b);
}

BUILTIN(isSemver)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::String || (n == 2 && a[1].kind != Kind::Bool))
        return noSuchOverload("isSemver");
    return Value::boolean(SemVer::parse(a[0].str(), n == 2 && a[1].b).has_value());
}

namespace {
Value semverPart(const Value& v, int part, const char* fn)
{
    if (v.kind != Kind::Semver)
        return noSuchOverload(fn);
    const SemVer& s = v.semverValue();
    uint64_t x = part == 0 ? s.major : (part == 1 ? s.minor : s.patch);
    return Value::integer(int64_t(x));
}
} // namespace

BUILTIN(major)
{
    UNUSED_ARGS;
    return semverPart(a[0], 0, "major");
}
BUILTIN(minor)
{
    UNUSED_ARGS;
    return semverPart(a[0], 1, "minor");
}
BUILTIN(patch)
{
    UNUSED_ARGS;
    return semverPart(a[0], 2, "patch");
}

namespace {
/// Kinds with cel-go's Comparer trait: min, max and isSorted accept only these elements.
bool comparerKind(Kind k)
{
    return k == Kind::Int || k == Kind::Uint || k == Kind::Double || k == Kind::String || k == Kind::Bytes
        || k == Kind::Bool || k == Kind::Timestamp || k == Kind::Duration;
}
} // namespace

// Kubernetes' isSorted, min and max ignore a comparison that fails (a NaN, or an int next to a
// string in a dyn list): only "greater" or "less" counts, so such pairs neither break the order
// nor replace the current extreme.
BUILTIN(isSorted)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::List)
        return noSuchOverload("isSorted");
    const auto& l = a[0].listData();
    for (size_t i = 0; i < l.size(); ++i) {
        if (!comparerKind(l[i].kind))
            return noSuchOverload("isSorted");
        bool ok = true;
        if (i > 0 && lessThan(l[i], l[i - 1], &ok) && ok)
            return Value::boolean(false);
    }
    return Value::boolean(true);
}

// Kubernetes' sum starts from the zero of the overload the call resolved to and adds every
// element to it. A list of statically unknown element type resolves to the first overload, int:
// [dyn(1.5)].sum() is an error there, and [-0.0].sum() is 0.0.
BUILTIN(sum)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::List)
        return noSuchOverload("sum");
    const CelType& t = call.type;
    Value acc = Value::integer(0);
    if (t.k == CelType::K::Uint) {
        acc = Value::uinteger(0);
    } else if (t.k == CelType::K::Double) {
        acc = Value::dbl(0);
    } else if (t.k == CelType::K::Duration) {
        acc.kind = Kind::Duration;
        acc.i = 0;
    }
    for (const auto& e : a[0].listData()) {
        Value pair[2] = { acc, e };
        acc = add(ctx, pair, 2, call);
        if (acc.isError())
            return acc;
    }
    return acc;
}

namespace {
Value extreme(const Value& list, bool wantMax, const char* fn)
{
    if (list.kind != Kind::List)
        return noSuchOverload(fn);
    const auto& l = list.listData();
    if (l.empty())
        return Value::error(std::string(fn) + " called on empty list");
    size_t best = 0;
    for (size_t i = 0; i < l.size(); ++i) {
        if (!comparerKind(l[i].kind))
            return noSuchOverload(fn);
        bool ok = true;
        bool better = wantMax ? lessThan(l[best], l[i], &ok) : lessThan(l[i], l[best], &ok);
        if (better && ok)
            best = i;
    }
    return l[best];
}
} // namespace

BUILTIN(min)
{
    UNUSED_ARGS;
    return extreme(a[0], false, "min");
}
BUILTIN(max)
{
    UNUSED_ARGS;
    return extreme(a[0], true, "max");
}

BUILTIN(setsContains)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::List || a[1].kind != Kind::List)
        return noSuchOverload("sets.contains");
    for (const auto& e : a[1].listData()) {
        if (!listContains(a[0].listData(), e))
            return Value::boolean(false);
    }
    return Value::boolean(true);
}

BUILTIN(setsEquivalent)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::List || a[1].kind != Kind::List)
        return noSuchOverload("sets.equivalent");
    Value forward = setsContains(ctx, a, n, call);
    if (!forward.b)
        return forward;
    Value swapped[2] = { a[1], a[0] };
    return setsContains(ctx, swapped, n, call);
}

BUILTIN(setsIntersects)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::List || a[1].kind != Kind::List)
        return noSuchOverload("sets.intersects");
    for (const auto& e : a[1].listData()) {
        if (listContains(a[0].listData(), e))
            return Value::boolean(true);
    }
    return Value::boolean(false);
}

BUILTIN(slice)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::List || a[1].kind != Kind::Int || a[2].kind != Kind::Int)
        return noSuchOverload("slice");
    const auto& l = a[0].listData();
    int64_t from = a[1].i, to = a[2].i;
    if (from < 0 || to < 0)
        return Value::error("cannot slice(" + std::to_string(from) + ", " + std::to_string(to)
            + "), negative indexes not supported");
    if (from > to)
        return Value::error("cannot slice(" + std::to_string(from) + ", " + std::to_string(to)
            + "), start index must be less than or equal to end index");
    if (to > int64_t(l.size()))
        return Value::error("cannot slice(" + std::to_string(from) + ", " + std::to_string(to)
            + "), list is length " + std::to_string(l.size()));
    return Value::list(ListData(l.begin() + from, l.begin() + to));
}

namespace {
void flattenInto(const ListData& in, int64_t depth, ListData& out)
{
    for (const auto& e : in) {
        if (e.kind == Kind::List && depth > 0)
            flattenInto(e.listData(), depth - 1, out);
        else
            out.push_back(e);
    }
}
} // namespace

BUILTIN(flatten)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::List || (n == 2 && a[1].kind != Kind::Int))
        return noSuchOverload("flatten");
    int64_t depth = n == 2 ? a[1].i : 1;
    if (depth < 0)
        return Value::error("level must be non-negative");
    ListData out;
    flattenInto(a[0].listData(), depth, out);
    return Value::list(std::move(out));
}

BUILTIN(distinct)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::List)
        return noSuchOverload("distinct");
    ListData out;
    for (const auto& e : a[0].listData()) {
        if (!listContains(out, e))
            out.push_back(e);
    }
    return Value::list(std::move(out));
}

BUILTIN(reverse)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::List)
        return noSuchOverload("reverse");
    ListData out(a[0].listData().rbegin(), a[0].listData().rend());
    return Value::list(std::move(out));
}

BUILTIN(sort)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::List)
        return noSuchOverload("sort");
    ListData out = a[0].listData();
    for (size_t i = 1; i < out.size(); ++i) {
        bool ok = true;
        lessThan(out[0], out[i], &ok);
        if (!ok || out[0].kind != out[i].kind)
            return Value::error("list elements must have the same type");
    }
    std::stable_sort(out.begin(), out.end(), [](const Value& x, const Value& y) {
        bool ok = true;
        return lessThan(x, y, &ok);
    });
    return Value::list(std::move(out));
}

BUILTIN(range)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::Int)
        return noSuchOverload("lists.range");
    // The list's cost (its size) was charged before the call, so a list beyond the budget is
    // never built here.
    if (ctx.cancelled)
        return costLimitError();
    ListData out;
    for (int64_t i = 0; i < a[0].i; ++i)
        out.push_back(Value::integer(i));
    return Value::list(std::move(out));
}

BUILTIN(optionalOf)
{
    UNUSED_ARGS;
    return Value::optionalOf(a[0]);
}

BUILTIN(optionalOfNonZero)
{
    UNUSED_ARGS;
    if (isZeroValue(a[0]))
        return Value::optionalNone();
    return Value::optionalOf(a[0]);
}

BUILTIN(optionalNone)
{
    UNUSED_ARGS;
    (void)a;
    return Value::optionalNone();
}

BUILTIN(hasValue)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::Optional)
        return noSuchOverload("hasValue");
    return Value::boolean(a[0].optionalValue() != nullptr);
}

BUILTIN(optionalValue)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::Optional)
        return noSuchOverload("value");
    if (!a[0].optionalValue())
        return Value::error("optional.none() dereference");
    return *a[0].optionalValue();
}

BUILTIN(orValue)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::Optional)
        return noSuchOverload("orValue");
    return a[0].optionalValue() ? *a[0].optionalValue() : a[1];
}

BUILTIN(optionalOr)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::Optional || a[1].kind != Kind::Optional)
        return noSuchOverload("or");
    return a[0].optionalValue() ? a[0] : a[1];
}

#undef BUILTIN
#undef UNUSED_ARGS

} // namespace impl

} // namespace drasim::cel
