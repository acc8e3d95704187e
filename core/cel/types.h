// SPDX-License-Identifier: Apache-2.0
#pragma once

// Static types of the CEL checker (cel.md §4): primitives, parameterised list/map/optional,
// type values, the Kubernetes abstract types, and dyn.

#include <string>
#include <vector>

namespace drasim::cel {

struct CelType
{
    enum class K : uint8_t {
        Dyn,
        Null,
        Bool,
        Int,
        Uint,
        Double,
        String,
        Bytes,
        List, ///< params[0] = element
        Map, ///< params[0] = key, params[1] = value
        Type, ///< params[0] = the denoted type (Dyn when unknown)
        Quantity,
        Semver,
        Optional, ///< params[0] = contained
        Device,
        Timestamp,
        Duration,
        IP,
        CIDR,
        URL,
        Param, ///< overload type parameter, name in `param`
    };
    K k = K::Dyn;
    std::vector<CelType> params;
    char param = 0;

    CelType() = default;
    CelType(K kind)
        : k(kind)
    { }
    CelType(K kind, std::vector<CelType> p)
        : k(kind)
        , params(std::move(p))
    { }

    static CelType dyn() { return CelType(K::Dyn); }
    static CelType list(CelType elem) { return CelType(K::List, { std::move(elem) }); }
    static CelType map(CelType key, CelType value)
    {
        return CelType(K::Map, { std::move(key), std::move(value) });
    }
    static CelType optional(CelType inner) { return CelType(K::Optional, { std::move(inner) }); }
    static CelType type(CelType of) { return CelType(K::Type, { std::move(of) }); }
    static CelType typeParam(char name)
    {
        CelType t(K::Param);
        t.param = name;
        return t;
    }

    bool operator==(const CelType& o) const { return k == o.k && params == o.params && param == o.param; }
    bool isDyn() const { return k == K::Dyn; }
    bool isNumeric() const { return k == K::Int || k == K::Uint || k == K::Double; }

    /// cel-go spelling: "int", "list(string)", "map(string, dyn)", "kubernetes.Quantity".
    std::string toString() const;
};

/// True if a value of type `from` may be used where `to` is expected (dyn matches anything).
bool isAssignable(const CelType& to, const CelType& from);

/// True when the type contains dyn anywhere (used by the homogeneous-literal validator).
bool containsDyn(const CelType& t);

} // namespace drasim::cel
