// SPDX-License-Identifier: Apache-2.0
#pragma once

// Runtime values of the CEL evaluator. A Value is a small tagged union plus an optional owner
// handle: scalars, string views into the device or the program, and pointers to constants need
// no heap allocation, which keeps the common selector path allocation-free. Values created at
// run time (concatenations, lists, parsed quantities) keep their storage alive through `owner`.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/common/quantity.h"
#include "core/common/semver.h"

namespace drasim::cel {

enum class Kind : uint8_t {
    Null,
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    List,
    Map,
    Type,
    Quantity,
    Semver,
    Optional,
    Timestamp, ///< Unix seconds in i, nanoseconds in n
    Duration, ///< nanoseconds in i
    IP, ///< address bytes in u (first 8) and n (last 8); aux = family * 256
    CIDR, ///< like IP, aux = family * 256 + prefix length
    URL, ///< owned parsed URL (builtins_url.cpp)
    DeviceMaps, ///< device.attributes (flag 0) or device.capacity (flag 1)
    DeviceDomain, ///< device.attributes[domain] / device.capacity[domain]; domain in str()
    Device, ///< the `device` variable itself
    Error,
};

class Value;
using ListData = std::vector<Value>;
struct MapData;

class Value
{
public:
    Kind kind = Kind::Null;
    /// DeviceMaps/DeviceDomain: 0 attributes, 1 capacity. Quantity: 1 for a device capacity,
    /// which a real cluster hands over re-parsed from its canonical form (cel.md §8).
    uint8_t flag = 0;
    int32_t aux = 0; ///< Quantity: 1 when `n` caches the approximate double value
    union {
        bool b;
        int64_t i;
        uint64_t u;
        double d;
        const void* p = nullptr;
    };
    size_t n = 0; ///< string/bytes/type-name length
    std::shared_ptr<const void> owner;

    Value()
        : p(nullptr)
    { }

    static Value null() { return Value(); }
    static Value boolean(bool v)
    {
        Value r;
        r.kind = Kind::Bool;
        r.b = v;
        return r;
    }
    static Value integer(int64_t v)
    {
        Value r;
        r.kind = Kind::Int;
        r.i = v;
        return r;
    }
    static Value uinteger(uint64_t v)
    {
        Value r;
        r.kind = Kind::Uint;
        r.u = v;
        return r;
    }
    static Value dbl(double v)
    {
        Value r;
        r.kind = Kind::Double;
        r.d = v;
        return r;
    }
    /// A string view that must outlive the value (program constant or device field).
    static Value stringView(std::string_view s, Kind kind = Kind::String)
    {
        Value r;
        r.kind = kind;
        r.p = s.data();
        r.n = s.size();
        return r;
    }
    /// A string owned by the value (allocates).
    static Value string(std::string s, Kind kind = Kind::String);
    static Value typeValue(std::string_view staticName);
    static Value list(ListData items);
    static Value map(MapData data);
    /// An owned quantity (allocates); caches its approximate value for fast comparisons.
    static Value quantity(Quantity q);
    /// Points at a device capacity that outlives the value.
    static Value capacityRef(const Quantity* q)
    {
        Value r;
        r.kind = Kind::Quantity;
        r.p = q;
        r.flag = 1;
        return r;
    }
    static Value semver(SemVer v);
    static Value optionalOf(Value v);
    static Value optionalNone()
    {
        Value r;
        r.kind = Kind::Optional;
        return r;
    }
    static Value error(std::string message);

    bool isError() const { return kind == Kind::Error; }
    bool isNumber() const { return kind == Kind::Int || kind == Kind::Uint || kind == Kind::Double; }
    std::string_view str() const { return { static_cast<const char*>(p), n }; }
    const ListData& listData() const { return *static_cast<const ListData*>(p); }
    const MapData& mapData() const { return *static_cast<const MapData*>(p); }
    const Quantity& quantityValue() const { return *static_cast<const Quantity*>(p); }
    /// The quantity as the allocator sees it: capacities re-parsed from their canonical form.
    Quantity effectiveQuantity() const { return flag ? quantityValue().asStored() : quantityValue(); }
    double quantityApprox() const;
    const SemVer& semverValue() const { return *static_cast<const SemVer*>(p); }
    const Value* optionalValue() const { return static_cast<const Value*>(p); }
    const std::string& errorMessage() const { return *static_cast<const std::string*>(p); }
};

/// Map entries in insertion order (CEL maps iterate in literal order in cel-go).
struct MapData
{
    std::vector<std::pair<Value, Value>> entries;
};

/// CEL runtime type name of a value ("int", "list", "kubernetes.Quantity", ...).
std::string_view typeName(const Value& v);

/// Heterogeneous CEL equality (numbers on the number line, NaN unequal). Returns an error value
/// for the Kubernetes custom types compared with something else, otherwise a bool.
Value equals(const Value& a, const Value& b);

/// Numeric comparison on the number line: -1, 0, 1; 2 when unordered (NaN involved).
int compareNumbers(const Value& a, const Value& b);

/// Map lookup with CEL key equality (int/uint/double keys compare numerically). Null if absent.
const Value* mapFind(const MapData& map, const Value& key);

/// Exact quantity comparison (-1, 0, 1) with a fast path: values that differ clearly as doubles
/// are ordered without the exact decimal comparison, which is comparatively slow.
int compareQuantities(const Value& a, const Value& b);

/// Canonical text of an IP or CIDR value (builtins_net.cpp).
std::string netToString(const Value& v);

/// The text a URL value was parsed from (builtins_url.cpp).
std::string urlToString(const Value& v);

/// Human-readable rendering for messages and the CLI ("[1, 2]", "\"a\"").
std::string debugString(const Value& v);

} // namespace drasim::cel
