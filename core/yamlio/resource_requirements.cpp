// SPDX-License-Identifier: Apache-2.0
// The API server's ValidateResourceRequirements for a container's requests and limits (and the pod
// overhead, which it checks as limits): resource names, whole numbers for extended resources, and
// requests against limits. Extended resources (a domain outside kubernetes.io) and hugepages cannot
// be overcommitted, so their request must equal their limit and a request needs a limit; cpu,
// memory and ephemeral-storage only need request <= limit. Resource names are visited in sorted
// order (upstream walks a Go map, so its order varies between runs).
#include <algorithm>
#include <array>

#include "core/yamlio/names.h"
#include "core/yamlio/object_readers.h"

namespace drasim::yamlio {

namespace {

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

bool isHugePages(std::string_view name)
{
    return startsWith(name, "hugepages-");
}

/// helper.IsNativeResource: no domain, or a domain in kubernetes.io.
bool isNative(std::string_view name)
{
    return name.find('/') == std::string_view::npos || name.find("kubernetes.io/") != std::string_view::npos;
}

bool overcommitAllowed(std::string_view name)
{
    return isNative(name) && !isHugePages(name);
}

/// helper.IsStandardResourceName (the names a ResourceQuota or LimitRange may use, too).
bool isStandardResource(std::string_view name)
{
    static constexpr std::array<std::string_view, 19> kStandard
        = { "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory",
              "requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods",
              "services", "replicationcontrollers", "resourcequotas", "secrets", "persistentvolumeclaims",
              "configmaps", "services.nodeports", "services.loadbalancers", "requests.storage" };
    return std::find(kStandard.begin(), kStandard.end(), name) != kStandard.end() || isHugePages(name)
        || startsWith(name, "requests.hugepages-") || startsWith(name, "limits.hugepages-");
}

bool isStandardContainerResource(std::string_view name)
{
    return name == "cpu" || name == "memory" || name == "ephemeral-storage" || isHugePages(name);
}

/// validateContainerResourceName followed by ValidateResourceQuantityValue's integer rule.
void checkEntry(Reader& r, uint32_t node, const Path& p, const std::string& name, const Quantity& q)
{
    if (std::string e = checkLabelKey(name); !e.empty())
        r.invalid(node, p, name, e);
    else if (name.find('/') == std::string::npos) {
        if (!isStandardResource(name))
            r.invalid(node, p, name, "must be a standard resource type or fully qualified");
        if (!isStandardContainerResource(name))
            r.invalid(node, p, name, "must be a standard resource for containers");
    } else if (!isNative(name) && !isExtendedResourceName(name)) {
        r.invalid(node, p, name, "doesn't follow extended resource name standard");
    }
    // The API server prints the quantity itself here (no quotes), unlike the string values below.
    if (isExtendedResourceName(name) && q.milliValue() % 1000 != 0)
        r.error(node, p, "Invalid value: " + q.toString() + ": must be an integer");
}

} // namespace

/// helper.IsExtendedResourceName: not native, and still a qualified name once quota's "requests."
/// prefix is put in front of it.
bool isExtendedResourceName(std::string_view name)
{
    if (isNative(name) || startsWith(name, "requests."))
        return false;
    return checkLabelKey("requests." + std::string(name)).empty();
}

void validateResourceRequirements(
    Reader& r, uint32_t node, const Path& p, const api::ResourceRequirements& res)
{
    const bool isMap = r.nodeKind(node) == YamlNode::Kind::Map;
    const uint32_t limitsNode = isMap ? findKey(r.doc(), node, "limits") : 0;
    const uint32_t requestsNode = isMap ? findKey(r.doc(), node, "requests") : 0;
    // Where a key's value sits, for the position of its messages (the whole map if not found).
    auto at = [&](uint32_t map, const std::string& key) {
        const uint32_t v = map && r.nodeKind(map) == YamlNode::Kind::Map ? findKey(r.doc(), map, key) : 0;
        return v ? v : (map ? map : node);
    };
    const Path limPath = p.field("limits");
    const Path reqPath = p.field("requests");
    for (const auto& [name, q] : res.limits)
        checkEntry(r, at(limitsNode, name), limPath.key(name), name, q);
    for (const auto& [name, q] : res.requests) {
        const uint32_t n = at(requestsNode, name);
        checkEntry(r, n, reqPath.key(name), name, q);
        auto limit = res.limits.find(name);
        if (limit != res.limits.end()) {
            const int cmp = q.compare(limit->second);
            if (cmp != 0 && !overcommitAllowed(name))
                r.invalid(n, reqPath, q.toString(),
                    "must be equal to " + name + " limit of " + limit->second.toString());
            else if (cmp > 0)
                r.invalid(n, reqPath, q.toString(),
                    "must be less than or equal to " + name + " limit of " + limit->second.toString());
        } else if (!overcommitAllowed(name)) {
            r.error(n, limPath, "Required value: Limit must be set for non overcommitable resources");
        }
    }
}

} // namespace drasim::yamlio
