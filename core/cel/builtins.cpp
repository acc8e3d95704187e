// SPDX-License-Identifier: Apache-2.0
// The declared function environment of the DRA selector compiler: the CEL standard library plus
// the Kubernetes libraries a current release enables for new expressions (cel.md §6-§9, §11).
// Not declared on purpose: string reverse() (strings extension v3), includes() (alpha gate).
#include "core/cel/builtins.h"

#include <map>

#include "core/cel/builtin_impls.h"

namespace drasim::cel {

namespace {

using K = CelType::K;

const CelType kInt(K::Int);
const CelType kUint(K::Uint);
const CelType kDouble(K::Double);
const CelType kBool(K::Bool);
const CelType kString(K::String);
const CelType kBytes(K::Bytes);
const CelType kDyn(K::Dyn);
const CelType kQuantity(K::Quantity);
const CelType kSemver(K::Semver);
const CelType kTimestamp(K::Timestamp);
const CelType kDuration(K::Duration);
const CelType kIP(K::IP);
const CelType kCIDR(K::CIDR);
const CelType kURL(K::URL);
const CelType kA = CelType::typeParam('A');
const CelType kB = CelType::typeParam('B');
const CelType kListA = CelType::list(kA);
const CelType kListString = CelType::list(kString);

Overload global(std::vector<CelType> params, CelType result)
{
    return { false, std::move(params), std::move(result) };
}
Overload member(std::vector<CelType> params, CelType result)
{
    return { true, std::move(params), std::move(result) };
}

using FunctionTable = std::map<std::string, FunctionDecl, std::less<>>;

void define(FunctionTable& t, std::string name, BuiltinFn impl, std::vector<Overload> overloads)
{
    FunctionDecl d;
    d.name = name;
    d.impl = impl;
    d.overloads = std::move(overloads);
    t[name] = std::move(d);
}

/// One global overload (T, T) -> result per type T; a parameter result is T itself.
std::vector<Overload> sameType(std::vector<CelType> types, const CelType& result)
{
    std::vector<Overload> out;
    for (const auto& ty : types)
        out.push_back(global({ ty, ty }, result.k == K::Param ? ty : result));
    return out;
}

// Operators, size, conversions, timestamps and durations.
void addOperators(FunctionTable& t)
{
    auto def = [&](std::string name, BuiltinFn impl, std::vector<Overload> overloads) {
        define(t, std::move(name), impl, std::move(overloads));
    };

    // Arithmetic: same-type overloads only (no implicit numeric conversion).
    auto plus = sameType({ kInt, kUint, kDouble, kString, kBytes }, kA);
    plus.push_back(global({ kListA, kListA }, kListA));
    plus.push_back(global({ kTimestamp, kDuration }, kTimestamp));
    plus.push_back(global({ kDuration, kTimestamp }, kTimestamp));
    plus.push_back(global({ kDuration, kDuration }, kDuration));
    def("_+_", impl::add, plus);
    auto minus = sameType({ kInt, kUint, kDouble }, kA);
    minus.push_back(global({ kTimestamp, kTimestamp }, kDuration));
    minus.push_back(global({ kTimestamp, kDuration }, kTimestamp));
    minus.push_back(global({ kDuration, kDuration }, kDuration));
    def("_-_", impl::subtract, minus);
    def("_*_", impl::multiply, sameType({ kInt, kUint, kDouble }, kA));
    def("_/_", impl::divide, sameType({ kInt, kUint, kDouble }, kA));
    def("_%_", impl::modulo, sameType({ kInt, kUint }, kA));
    def("-_", impl::negate, { global({ kInt }, kInt), global({ kDouble }, kDouble) });
    def("!_", impl::logicalNot, { global({ kBool }, kBool) });
    def("_==_", impl::equal, { global({ kA, kA }, kBool) });
    def("_!=_", impl::notEqual, { global({ kA, kA }, kBool) });

    // Ordering, with Kubernetes' cross-type numeric comparisons enabled.
    auto ordering = sameType({ kInt, kUint, kDouble, kString, kBytes, kBool, kTimestamp, kDuration }, kBool);
    for (const auto& x : { kInt, kUint, kDouble }) {
        for (const auto& y : { kInt, kUint, kDouble }) {
            if (!(x == y))
                ordering.push_back(global({ x, y }, kBool));
        }
    }
    def("_<_", impl::less, ordering);
    def("_<=_", impl::lessEqual, ordering);
    def("_>_", impl::greater, ordering);
    def("_>=_", impl::greaterEqual, ordering);
    def("@in", impl::in, { global({ kA, kListA }, kBool), global({ kA, CelType::map(kA, kB) }, kBool) });

    std::vector<Overload> sizes;
    for (const auto& ty : { kString, kBytes, kListA, CelType::map(kA, kB) }) {
        sizes.push_back(global({ ty }, kInt));
        sizes.push_back(member({ ty }, kInt));
    }
    def("size", impl::size, sizes);

    // Conversions.
    def("int", impl::toInt,
        { global({ kInt }, kInt), global({ kUint }, kInt), global({ kDouble }, kInt),
            global({ kString }, kInt), global({ kTimestamp }, kInt) });
    def("uint", impl::toUint,
        { global({ kInt }, kUint), global({ kUint }, kUint), global({ kDouble }, kUint),
            global({ kString }, kUint) });
    def("double", impl::toDouble,
        { global({ kInt }, kDouble), global({ kUint }, kDouble), global({ kDouble }, kDouble),
            global({ kString }, kDouble) });
    def("string", impl::toString,
        { global({ kInt }, kString), global({ kUint }, kString), global({ kDouble }, kString),
            global({ kBool }, kString), global({ kString }, kString), global({ kBytes }, kString),
            global({ kTimestamp }, kString), global({ kDuration }, kString), global({ kIP }, kString),
            global({ kCIDR }, kString) });
    def("bool", impl::toBool, { global({ kBool }, kBool), global({ kString }, kBool) });
    def("bytes", impl::toBytes, { global({ kBytes }, kBytes), global({ kString }, kBytes) });
    def("dyn", impl::toDyn, { global({ kA }, kDyn) });
    def("type", impl::typeOf, { global({ kA }, CelType::type(kA)) });

    // Timestamps and durations.
    def("duration", impl::toDuration, { global({ kString }, kDuration), global({ kDuration }, kDuration) });
    def("timestamp", impl::toTimestamp,
        { global({ kString }, kTimestamp), global({ kInt }, kTimestamp),
            global({ kTimestamp }, kTimestamp) });
    for (const char* getter : { "getFullYear", "getMonth", "getDate", "getDayOfMonth", "getDayOfWeek",
             "getDayOfYear", "getHours", "getMinutes", "getSeconds", "getMilliseconds" }) {
        std::vector<Overload> o = { member({ kTimestamp }, kInt), member({ kTimestamp, kString }, kInt) };
        std::string name = getter;
        if (name == "getHours" || name == "getMinutes" || name == "getSeconds" || name == "getMilliseconds")
            o.push_back(member({ kDuration }, kInt));
        def(name, impl::timeGetter, o);
    }
}

// Strings: the standard functions, the strings extension and the Kubernetes regex library.
void addStringFunctions(FunctionTable& t)
{
    auto def = [&](std::string name, BuiltinFn impl, std::vector<Overload> overloads) {
        define(t, std::move(name), impl, std::move(overloads));
    };

    // Standard string functions.
    def("contains", impl::contains, { member({ kString, kString }, kBool) });
    def("startsWith", impl::startsWith, { member({ kString, kString }, kBool) });
    def("endsWith", impl::endsWith, { member({ kString, kString }, kBool) });
    def("matches", impl::matches,
        { member({ kString, kString }, kBool), global({ kString, kString }, kBool) });

    // Strings extension, version 2.
    def("charAt", impl::charAt, { member({ kString, kInt }, kString) });
    def("indexOf", impl::indexOf,
        { member({ kString, kString }, kInt), member({ kString, kString, kInt }, kInt),
            member({ kListA, kA }, kInt) });
    def("lastIndexOf", impl::lastIndexOf,
        { member({ kString, kString }, kInt), member({ kString, kString, kInt }, kInt),
            member({ kListA, kA }, kInt) });
    def("lowerAscii", impl::lowerAscii, { member({ kString }, kString) });
    def("upperAscii", impl::upperAscii, { member({ kString }, kString) });
    def("replace", impl::replace,
        { member({ kString, kString, kString }, kString),
            member({ kString, kString, kString, kInt }, kString) });
    def("split", impl::split,
        { member({ kString, kString }, kListString), member({ kString, kString, kInt }, kListString) });
    def("substring", impl::substring,
        { member({ kString, kInt }, kString), member({ kString, kInt, kInt }, kString) });
    def("trim", impl::trim, { member({ kString }, kString) });
    def("join", impl::join, { member({ kListString }, kString), member({ kListString, kString }, kString) });
    def("format", impl::format, { member({ kString, CelType::list(kDyn) }, kString) });
    def("strings.quote", impl::quote, { global({ kString }, kString) });

    // Kubernetes regex library.
    def("find", impl::find, { member({ kString, kString }, kString) });
    def("findAll", impl::findAll,
        { member({ kString, kString }, kListString), member({ kString, kString, kInt }, kListString) });
}

// Kubernetes lists and sets, cel-go lists, quantities.
void addListAndQuantityFunctions(FunctionTable& t)
{
    auto def = [&](std::string name, BuiltinFn impl, std::vector<Overload> overloads) {
        define(t, std::move(name), impl, std::move(overloads));
    };

    // Kubernetes lists library and sets.
    def("isSorted", impl::isSorted, { member({ kListA }, kBool) });
    def("sum", impl::sum,
        { member({ CelType::list(kInt) }, kInt), member({ CelType::list(kUint) }, kUint),
            member({ CelType::list(kDouble) }, kDouble), member({ CelType::list(kDuration) }, kDuration) });
    def("min", impl::min, { member({ kListA }, kA) });
    def("max", impl::max, { member({ kListA }, kA) });
    def("sets.contains", impl::setsContains, { global({ kListA, kListA }, kBool) });
    def("sets.equivalent", impl::setsEquivalent, { global({ kListA, kListA }, kBool) });
    def("sets.intersects", impl::setsIntersects, { global({ kListA, kListA }, kBool) });

    // cel-go lists extension (Kubernetes 1.34+).
    def("slice", impl::slice, { member({ kListA, kInt, kInt }, kListA) });
    def("flatten", impl::flatten,
        { member({ CelType::list(kDyn) }, CelType::list(kDyn)),
            member({ CelType::list(kDyn), kInt }, CelType::list(kDyn)) });
    def("distinct", impl::distinct, { member({ kListA }, kListA) });
    def("reverse", impl::reverse, { member({ kListA }, kListA) });
    def("sort", impl::sort, { member({ kListA }, kListA) });
    def("lists.range", impl::range, { global({ kInt }, CelType::list(kInt)) });

    // Kubernetes quantity library.
    def("quantity", impl::quantity, { global({ kString }, kQuantity) });
    def("isQuantity", impl::isQuantity, { global({ kString }, kBool) });
    def("compareTo", impl::compareTo,
        { member({ kQuantity, kQuantity }, kInt), member({ kSemver, kSemver }, kInt) });
    def("isGreaterThan", impl::isGreaterThan,
        { member({ kQuantity, kQuantity }, kBool), member({ kSemver, kSemver }, kBool) });
    def("isLessThan", impl::isLessThan,
        { member({ kQuantity, kQuantity }, kBool), member({ kSemver, kSemver }, kBool) });
    def("add", impl::quantityAdd,
        { member({ kQuantity, kQuantity }, kQuantity), member({ kQuantity, kInt }, kQuantity) });
    def("sub", impl::quantitySub,
        { member({ kQuantity, kQuantity }, kQuantity), member({ kQuantity, kInt }, kQuantity) });
    def("asInteger", impl::asInteger, { member({ kQuantity }, kInt) });
    def("isInteger", impl::isInteger, { member({ kQuantity }, kBool) });
    def("asApproximateFloat", impl::asApproximateFloat, { member({ kQuantity }, kDouble) });
    def("sign", impl::sign, { global({ kQuantity }, kInt) }); // global only: q.sign() does not check
}

// Kubernetes semver, IP, CIDR and URL libraries; optional types.
void addLibraryFunctions(FunctionTable& t)
{
    auto def = [&](std::string name, BuiltinFn impl, std::vector<Overload> overloads) {
        define(t, std::move(name), impl, std::move(overloads));
    };

    // Kubernetes semver library.
    def("semver", impl::semver, { global({ kString }, kSemver), global({ kString, kBool }, kSemver) });
    def("isSemver", impl::isSemver, { global({ kString }, kBool), global({ kString, kBool }, kBool) });
    def("major", impl::major, { member({ kSemver }, kInt) });
    def("minor", impl::minor, { member({ kSemver }, kInt) });
    def("patch", impl::patch, { member({ kSemver }, kInt) });

    // Kubernetes IP and CIDR libraries.
    def("ip", impl::ip, { global({ kString }, kIP), member({ kCIDR }, kIP) });
    def("isIP", impl::isIP, { global({ kString }, kBool) });
    def("ip.isCanonical", impl::ipIsCanonical, { global({ kString }, kBool) });
    def("family", impl::ipFamily, { member({ kIP }, kInt) });
    for (const char* p :
        { "isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast" })
        def(p, impl::ipPredicate, { member({ kIP }, kBool) });
    def("cidr", impl::cidr, { global({ kString }, kCIDR) });
    def("isCIDR", impl::isCIDR, { global({ kString }, kBool) });
    def("containsIP", impl::containsIP, { member({ kCIDR, kIP }, kBool), member({ kCIDR, kString }, kBool) });
    def("containsCIDR", impl::containsCIDR,
        { member({ kCIDR, kCIDR }, kBool), member({ kCIDR, kString }, kBool) });
    def("masked", impl::cidrMasked, { member({ kCIDR }, kCIDR) });
    def("prefixLength", impl::prefixLength, { member({ kCIDR }, kInt) });

    // Kubernetes URL library.
    def("url", impl::url, { global({ kString }, kURL) });
    def("isURL", impl::isURL, { global({ kString }, kBool) });
    for (const char* g : { "getScheme", "getHost", "getHostname", "getPort", "getEscapedPath" })
        def(g, impl::urlGetter, { member({ kURL }, kString) });
    def("getQuery", impl::urlGetter, { member({ kURL }, CelType::map(kString, CelType::list(kString))) });

    // Optional types.
    def("optional.of", impl::optionalOf, { global({ kA }, CelType::optional(kA)) });
    def("optional.ofNonZeroValue", impl::optionalOfNonZero, { global({ kA }, CelType::optional(kA)) });
    def("optional.none", impl::optionalNone, { global({}, CelType::optional(kDyn)) });
    def("hasValue", impl::hasValue, { member({ CelType::optional(kA) }, kBool) });
    def("value", impl::optionalValue, { member({ CelType::optional(kA) }, kA) });
    def("orValue", impl::orValue, { member({ CelType::optional(kA), kA }, kA) });
    def("or", impl::optionalOr,
        { member({ CelType::optional(kA), CelType::optional(kA) }, CelType::optional(kA)) });
}

FunctionTable buildTable()
{
    FunctionTable t;
    addOperators(t);
    addStringFunctions(t);
    addListAndQuantityFunctions(t);
    addLibraryFunctions(t);
    return t;
}

} // namespace

const FunctionDecl* findFunction(std::string_view name)
{
    static const auto table = buildTable();
    auto it = table.find(name);
    return it == table.end() ? nullptr : &it->second;
}

bool isConversionFunction(std::string_view name)
{
    // The list cel-go's planner treats as type conversions, dyn() included: dyn of a constant
    // is a constant, so int(dyn("x")) fails at planning just like int("x").
    return name == "int" || name == "uint" || name == "double" || name == "string" || name == "bool"
        || name == "bytes" || name == "type" || name == "duration" || name == "timestamp" || name == "dyn";
}

} // namespace drasim::cel
