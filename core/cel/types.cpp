// SPDX-License-Identifier: Apache-2.0
#include "core/cel/types.h"

namespace drasim::cel {

std::string CelType::toString() const
{
    switch (k) {
    case K::Dyn:
        return "dyn";
    case K::Null:
        return "null_type";
    case K::Bool:
        return "bool";
    case K::Int:
        return "int";
    case K::Uint:
        return "uint";
    case K::Double:
        return "double";
    case K::String:
        return "string";
    case K::Bytes:
        return "bytes";
    case K::List:
        return "list(" + params[0].toString() + ")";
    case K::Map:
        return "map(" + params[0].toString() + ", " + params[1].toString() + ")";
    case K::Type:
        return params.empty() || params[0].isDyn() ? "type" : "type(" + params[0].toString() + ")";
    case K::Quantity:
        return "kubernetes.Quantity";
    case K::Semver:
        return "kubernetes.Semver";
    case K::Optional:
        return "optional_type(" + params[0].toString() + ")";
    case K::Device:
        return "kubernetes.DRADevice";
    case K::Timestamp:
        return "google.protobuf.Timestamp";
    case K::Duration:
        return "google.protobuf.Duration";
    case K::IP:
        return "net.IP";
    case K::CIDR:
        return "net.CIDR";
    case K::URL:
        return "kubernetes.URL";
    case K::Param:
        return std::string(1, param);
    }
    return "?";
}

bool isAssignable(const CelType& to, const CelType& from)
{
    if (to.isDyn() || from.isDyn())
        return true;
    if (to.k != from.k)
        return false;
    if (to.k == CelType::K::Type)
        return true; // type values are all of kind `type`
    if (to.params.size() != from.params.size())
        return false;
    for (size_t i = 0; i < to.params.size(); ++i) {
        if (!isAssignable(to.params[i], from.params[i]))
            return false;
    }
    return true;
}

bool containsDyn(const CelType& t)
{
    if (t.isDyn())
        return true;
    if (t.k == CelType::K::Type)
        return false;
    for (const auto& p : t.params) {
        if (containsDyn(p))
            return true;
    }
    return false;
}

} // namespace drasim::cel
