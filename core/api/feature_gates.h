// SPDX-License-Identifier: Apache-2.0
#pragma once

// The Kubernetes version a cluster runs and its feature gates, as kube-apiserver and
// kube-scheduler of that version know them: each gate's default per version, the gates a version
// does not have (a 1.37 binary no longer knows GangScheduling, a 1.35 one not yet
// TopologyAwareWorkloadScheduling), gates locked to their default, and the dependencies between
// gates. Parsing follows component-base's featuregate (`--feature-gates=Name=true,Other=false`)
// with its error words.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace drasim::api {

enum class KubernetesVersion { V1_35, V1_36, V1_37 };

constexpr KubernetesVersion kDefaultKubernetesVersion = KubernetesVersion::V1_37;

/// "1.35", "1.36", "1.37"; nullopt for anything else.
std::optional<KubernetesVersion> parseKubernetesVersion(std::string_view text);
const char* kubernetesVersionName(KubernetesVersion v);
/// "1.35, 1.36, 1.37", for messages.
std::string supportedKubernetesVersions();

class FeatureGates
{
public:
    /// The defaults of Kubernetes 1.37.
    FeatureGates()
        : FeatureGates(kDefaultKubernetesVersion)
    { }
    explicit FeatureGates(KubernetesVersion version);

    KubernetesVersion version() const { return m_version; }
    /// The gate's value: set explicitly, else its default at this version. False for a gate this
    /// version does not have.
    bool enabled(std::string_view name) const;
    /// Whether this version has the gate at all.
    bool known(std::string_view name) const;
    /// The gate's default at this version (false when unknown).
    bool defaultValue(std::string_view name) const;

    /// Sets one gate. Returns the error kube-scheduler gives ("unrecognized feature gate: X",
    /// "cannot set feature gate X to false, feature is locked to true"), empty on success; on
    /// error nothing changes. Dependencies are checked by dependencyErrors().
    std::string set(std::string_view name, bool value);
    /// Parses kube-scheduler's spelling `Name=true,Other=false` (spaces around names and values
    /// are allowed, empty items skipped, values as Go's strconv.ParseBool reads them) and sets
    /// every gate of it, then checks dependencies. Returns the error text featuregate's Set gives
    /// (without pflag's `invalid argument ... for "--feature-gates" flag: ` prefix), empty on
    /// success; on error nothing changes.
    std::string parse(std::string_view flag);
    /// "X is enabled, but depends on features that are disabled: [A B]" for every enabled gate
    /// with a disabled dependency, in gate name order.
    std::vector<std::string> dependencyErrors() const;

    /// The gates set explicitly, by name (what a scenario writes back).
    const std::map<std::string, bool, std::less<>>& overrides() const { return m_overrides; }
    /// Every gate this version knows, in name order.
    std::vector<std::string> names() const;

    /// The same explicit settings over another version's defaults. Settings that version does not
    /// accept are reported as set() reports them (the first one) and the result is nullopt.
    std::optional<FeatureGates> atVersion(KubernetesVersion v, std::string* error = nullptr) const;

    bool operator==(const FeatureGates& o) const = default;

private:
    KubernetesVersion m_version;
    std::map<std::string, bool, std::less<>> m_overrides;
};

/// Whether a PodGroup that cannot be placed preempts as a whole (workload-aware preemption): 1.36
/// behind its alpha gate WorkloadAwarePreemption, 1.37 wherever PodGroups exist (the gate merged
/// into GenericWorkload), never in 1.35.
bool workloadAwarePreemptionEnabled(const FeatureGates& gates);
/// Whether a single pod's DefaultPreemption respects its victims' PodGroups (a disruptionMode all
/// group is evicted whole): new in 1.37 with GenericWorkload; 1.36 evicted members one by one.
bool defaultPreemptionRespectsPodGroups(const FeatureGates& gates);

/// Go's strconv.ParseBool: 1, t, T, TRUE, true, True, 0, f, F, FALSE, false, False.
std::optional<bool> parseGoBool(std::string_view text);

} // namespace drasim::api
