// SPDX-License-Identifier: Apache-2.0
#include "core/yamlio/scheduling_versions.h"

#include <algorithm>
#include <vector>

namespace drasim::yamlio {

namespace {

using api::KubernetesVersion;
using api::SchedulingVersion;

std::optional<SchedulingVersion> parseVersion(std::string_view apiVersion)
{
    if (apiVersion == "scheduling.k8s.io/v1alpha1")
        return SchedulingVersion::V1alpha1;
    if (apiVersion == "scheduling.k8s.io/v1alpha2")
        return SchedulingVersion::V1alpha2;
    if (apiVersion == "scheduling.k8s.io/v1beta1")
        return SchedulingVersion::V1beta1;
    if (apiVersion == "scheduling.k8s.io/v1alpha3")
        return SchedulingVersion::V1alpha3;
    return std::nullopt;
}

/// The versions in which Kubernetes `k` serves `kind` (gates aside).
std::vector<SchedulingVersion> servedVersions(std::string_view kind, KubernetesVersion k)
{
    switch (k) {
    case KubernetesVersion::V1_35:
        return kind == "Workload" ? std::vector { SchedulingVersion::V1alpha1 }
                                  : std::vector<SchedulingVersion> {};
    case KubernetesVersion::V1_36:
        return kind == "CompositePodGroup" ? std::vector<SchedulingVersion> {}
                                           : std::vector { SchedulingVersion::V1alpha2 };
    case KubernetesVersion::V1_37:
        return kind == "CompositePodGroup"
            ? std::vector { SchedulingVersion::V1alpha3 }
            : std::vector { SchedulingVersion::V1beta1, SchedulingVersion::V1alpha3 };
    }
    return {};
}

std::string versionList(const std::vector<SchedulingVersion>& versions)
{
    std::string out;
    for (size_t i = 0; i < versions.size(); ++i) {
        if (i > 0)
            out += i + 1 == versions.size() ? " and " : ", ";
        out += api::schedulingApiVersion(versions[i]);
    }
    return out;
}

} // namespace

bool isSchedulingKind(std::string_view kind)
{
    return kind == "Workload" || kind == "PodGroup" || kind == "CompositePodGroup" || kind == "PriorityClass";
}

std::optional<SchedulingVersion> servedSchedulingVersion(
    std::string_view kind, std::string_view apiVersion, const api::FeatureGates& gates, std::string& refusal)
{
    const std::string noMatch
        = "no matches for kind \"" + std::string(kind) + "\" in version \"" + std::string(apiVersion) + "\"";
    if (kind == "PriorityClass") {
        if (apiVersion == "scheduling.k8s.io/v1")
            return SchedulingVersion::V1beta1;
        refusal = noMatch + " (expected scheduling.k8s.io/v1)";
        return std::nullopt;
    }
    const KubernetesVersion k = gates.version();
    const std::string release = std::string("Kubernetes ") + api::kubernetesVersionName(k);
    const auto served = servedVersions(kind, k);
    const auto v = parseVersion(apiVersion);
    if (served.empty()) {
        refusal = noMatch + " (" + release + " has no " + std::string(kind) + ")";
        return std::nullopt;
    }
    if (!v || std::find(served.begin(), served.end(), *v) == served.end()) {
        refusal
            = noMatch + " (" + release + " serves " + std::string(kind) + " in " + versionList(served) + ")";
        return std::nullopt;
    }
    const char* gate = kind == "CompositePodGroup" ? "CompositePodGroup" : "GenericWorkload";
    if (!gates.enabled(gate)) {
        refusal = noMatch + " (" + release + " serves it only with the feature gate " + gate + " on)";
        return std::nullopt;
    }
    return v;
}

} // namespace drasim::yamlio
