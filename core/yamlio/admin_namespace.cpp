// SPDX-License-Identifier: Apache-2.0
#include "core/yamlio/admin_namespace.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace drasim::yamlio {

namespace {

/// The first request with `adminAccess: true`, as upstream's AuthorizedForAdmin looks for it:
/// subrequests cannot carry adminAccess, so only `exactly` counts, and only the first one is
/// reported.
const api::DeviceRequestSpec* firstAdminRequest(const api::ResourceClaimSpec& spec, size_t& index)
{
    for (size_t i = 0; i < spec.requests.size(); ++i) {
        const auto& e = spec.requests[i].exactly;
        if (e && e->adminAccess.value_or(false)) {
            index = i;
            return &*e;
        }
    }
    return nullptr;
}

/// The error upstream's registry strategy (Validate on create) returns, or "" when allowed. The
/// field path is upstream's literal `spec.devices.requests[i].adminAccess`: it names neither
/// `exactly` nor, for templates, the outer `spec`, and we keep its words.
std::string check(const std::map<std::string, const api::Namespace*>& namespaces, const std::string& ns,
    size_t index, std::string& path)
{
    path = "spec.devices.requests[" + std::to_string(index) + "].adminAccess";
    auto it = namespaces.find(ns);
    if (it == namespaces.end())
        return "Internal error: could not retrieve namespace to verify admin access: namespaces \"" + ns
            + "\" not found";
    auto label = it->second->meta.labels.find(kAdminAccessNamespaceLabel);
    if (label == it->second->meta.labels.end() || label->second != "true")
        return std::string("Forbidden: admin access to devices requires the `") + kAdminAccessNamespaceLabel
            + ": true` label on the containing namespace";
    return {};
}

template <class T>
void gate(std::vector<T>& list, const char* kind,
    const std::map<std::string, const api::Namespace*>& namespaces,
    const std::function<const api::ResourceClaimSpec&(const T&)>& specOf, Diagnostics& diags)
{
    std::vector<T> kept;
    kept.reserve(list.size());
    for (auto& x : list) {
        size_t index = 0;
        const api::DeviceRequestSpec* admin = firstAdminRequest(specOf(x), index);
        std::string path;
        const std::string why = admin ? check(namespaces, x.meta.namespace_, index, path) : std::string();
        if (why.empty()) {
            kept.push_back(std::move(x));
            continue;
        }
        diags.error(admin->adminAccessPos, kind, x.meta.key(), path, why);
    }
    list = std::move(kept);
}

} // namespace

void rejectUnauthorizedAdminAccess(api::ObjectSet& objects, Diagnostics& diags)
{
    if (objects.namespaces.empty())
        return;
    std::map<std::string, const api::Namespace*> namespaces;
    for (const auto& n : objects.namespaces)
        namespaces.emplace(n.meta.name, &n);
    gate<api::ResourceClaim>(
        objects.resourceClaims, "ResourceClaim", namespaces,
        [](const api::ResourceClaim& c) -> const api::ResourceClaimSpec& { return c.spec; }, diags);
    gate<api::ResourceClaimTemplate>(
        objects.resourceClaimTemplates, "ResourceClaimTemplate", namespaces,
        [](const api::ResourceClaimTemplate& t) -> const api::ResourceClaimSpec& { return t.spec; }, diags);
}

} // namespace drasim::yamlio
