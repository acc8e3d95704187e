// SPDX-License-Identifier: Apache-2.0
#include "core/api/feature_gates.h"

#include <algorithm>
#include <array>

namespace drasim::api {

namespace {

// A gate's state in one version: not in that binary, off or on by default, or locked on (GA
// gates with LockToDefault, which refuse any other value).
enum class State : unsigned char { Absent, Off, On, LockedOn };

struct GateSpec
{
    std::string_view name;
    std::array<State, 3> byVersion; ///< 1.35, 1.36, 1.37
    std::array<std::string_view, 2> dependsOn;
};

constexpr State A = State::Absent, F = State::Off, T = State::On, L = State::LockedOn;

// Defaults from kube_features.go's defaultVersionedKubernetesFeatureGates (1.35, 1.36) and the
// 1.37 scheduler's versioned_kube_features.go; absent where the gate is not yet or no longer in
// the binary (GangScheduling and WorkloadAwarePreemption merged into GenericWorkload in 1.37,
// workload-scheduling.md §1.1). DRAFractionalCapacityRange's 1.37 default-on entry needs
// MinCompatibilityVersion 1.37, so a 1.37 binary (compatible with 1.36) keeps it off.
// DRAConsumableCapacity, DRAPartitionableDevices, DRADeviceTaints and DRADeviceBindingConditions:
// alpha and off in 1.35, beta and on in 1.36 and 1.37 (DRADeviceTaints GA in 1.37, not locked);
// with one off, the API server clears its fields (dra_field_gates.h; yamlio's clearedByGate).
// Dependencies from defaultKubernetesFeatureGateDependencies (GangScheduling: {GenericWorkload})
// and the CompositePodGroup gate page (GenericWorkload + TopologyAwareWorkloadScheduling);
// DRADeviceTaintRules: {DRADeviceTaints} is in that table too.
// Sorted by name.
constexpr std::array<GateSpec, 24> kGates = { {
    { "CompositePodGroup", { A, A, F }, { "GenericWorkload", "TopologyAwareWorkloadScheduling" } },
    { "DRAConsumableCapacity", { F, T, T }, {} },
    { "DRADerivedAttributes", { A, A, F }, {} }, // 1.37 alpha (kubernetes#140029, KEP-6080)
    { "DRADeviceBindingConditions", { F, T, T }, {} }, // KEP-5007
    { "DRADeviceCompatibilityGroups", { A, A, F }, {} }, // 1.37 alpha (kubernetes#139795, KEP-5963)
    // DeviceTaintRule: alpha 1.33-1.35, beta but off in 1.36, GA and on in 1.37 (kubernetes#138676,
    // KEP-5055); the API server serves the kind only with it on.
    { "DRADeviceTaintRules", { F, F, T }, { "DRADeviceTaints" } },
    { "DRADeviceTaints", { F, T, T }, {} }, // KEP-5055
    { "DRAExtendedResource", { F, T, L }, {} },
    { "DRAOptionalNodeOperations", { A, A, F }, {} }, // 1.37 alpha (kubernetes#139933, KEP-5945)
    { "DRAFractionalCapacityRange", { A, A, F }, {} },
    { "DRAListTypeAttributes", { A, F, F }, {} },
    // KEP-5517: alpha in 1.36 (field nodeAllocatableResourceMappings) and, reshaped, in 1.37
    // (nodeAllocatableResources); kubernetes#140009.
    { "DRANodeAllocatableResources", { A, F, F }, {} },
    { "DRAPartitionableDevices", { F, T, T }, {} }, // KEP-4815
    { "DRAWorkloadResourceClaims", { A, F, F }, {} },
    { "GangScheduling", { F, F, A }, { "GenericWorkload" } },
    { "GenericWorkload", { F, F, F }, {} },
    { "OpportunisticBatching", { T, T, T }, {} },
    { "PodGroupPreemptionPolicy", { A, A, F }, {} },
    { "PodLevelResources", { T, T, T }, {} }, // KEP-2837, beta and on since 1.34
    { "SchedulerPopFromBackoffQ", { T, T, T }, {} },
    // GA and locked on since 1.34 (kubernetes#131973); removed from the code in 1.37
    // (kubernetes#138420). drasim always applies the hints; spec.scheduler.queueingHints is the
    // simulator's own switch.
    { "SchedulerQueueingHints", { L, L, A }, {} },
    { "TopologyAwareWorkloadScheduling", { A, F, F }, {} },
    { "WorkloadAwarePreemption", { A, F, A }, {} },
    { "WorkloadWithJob", { A, F, F }, {} },
} };

constexpr size_t kGateCount = kGates.size();

State stateOf(std::string_view name, KubernetesVersion v)
{
    for (size_t i = 0; i < kGateCount; ++i)
        if (kGates[i].name == name)
            return kGates[i].byVersion[size_t(v)];
    return State::Absent;
}

} // namespace

std::optional<KubernetesVersion> parseKubernetesVersion(std::string_view text)
{
    if (text == "1.35")
        return KubernetesVersion::V1_35;
    if (text == "1.36")
        return KubernetesVersion::V1_36;
    if (text == "1.37")
        return KubernetesVersion::V1_37;
    return std::nullopt;
}

const char* kubernetesVersionName(KubernetesVersion v)
{
    switch (v) {
    case KubernetesVersion::V1_35:
        return "1.35";
    case KubernetesVersion::V1_36:
        return "1.36";
    case KubernetesVersion::V1_37:
        return "1.37";
    }
    return "1.37";
}

std::string supportedKubernetesVersions()
{
    return "1.35, 1.36, 1.37";
}

std::optional<bool> parseGoBool(std::string_view t)
{
    if (t == "1" || t == "t" || t == "T" || t == "TRUE" || t == "true" || t == "True")
        return true;
    if (t == "0" || t == "f" || t == "F" || t == "FALSE" || t == "false" || t == "False")
        return false;
    return std::nullopt;
}

FeatureGates::FeatureGates(KubernetesVersion version)
    : m_version(version)
{ }

bool FeatureGates::known(std::string_view name) const
{
    return stateOf(name, m_version) != State::Absent;
}

bool FeatureGates::defaultValue(std::string_view name) const
{
    const State s = stateOf(name, m_version);
    return s == State::On || s == State::LockedOn;
}

bool FeatureGates::enabled(std::string_view name) const
{
    if (!known(name))
        return false;
    if (auto it = m_overrides.find(name); it != m_overrides.end())
        return it->second;
    return defaultValue(name);
}

std::string FeatureGates::set(std::string_view name, bool value)
{
    // featureGate.unsafeSetFromMap (component-base/featuregate/feature_gate.go).
    const State s = stateOf(name, m_version);
    if (s == State::Absent)
        return "unrecognized feature gate: " + std::string(name);
    if (s == State::LockedOn && !value)
        return "cannot set feature gate " + std::string(name) + " to false, feature is locked to true";
    m_overrides[std::string(name)] = value;
    return {};
}

namespace {

std::string_view trimSpace(std::string_view s)
{
    const auto space
        = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; };
    while (!s.empty() && space(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && space(s.back()))
        s.remove_suffix(1);
    return s;
}

// utilerrors.NewAggregate(...).Error(): one message as is, several as "[a, b]".
std::string aggregate(const std::vector<std::string>& errors)
{
    if (errors.size() == 1)
        return errors.front();
    std::string out = "[";
    for (size_t i = 0; i < errors.size(); ++i) {
        if (i > 0)
            out += ", ";
        out += errors[i];
    }
    return out + "]";
}

} // namespace

std::string FeatureGates::parse(std::string_view flag)
{
    // featureGate.Set: split on commas, each item Name=value; a value Go cannot read as a bool
    // stops the parse. The map that results is then applied as SetFromMap applies it.
    std::vector<std::pair<std::string, bool>> items;
    while (!flag.empty()) {
        const size_t comma = flag.find(',');
        const std::string_view item = flag.substr(0, comma);
        flag = comma == std::string_view::npos ? std::string_view() : flag.substr(comma + 1);
        if (item.empty())
            continue;
        const size_t eq = item.find('=');
        const std::string key(trimSpace(item.substr(0, eq)));
        if (eq == std::string_view::npos)
            return "missing bool value for " + key;
        const std::string_view value = trimSpace(item.substr(eq + 1));
        const auto b = parseGoBool(value);
        if (!b)
            return "invalid value of " + key + "=" + std::string(value)
                + ", err: strconv.ParseBool: parsing \"" + std::string(value) + "\": invalid syntax";
        items.emplace_back(key, *b);
    }
    FeatureGates next = *this;
    std::vector<std::string> errors;
    for (const auto& [name, value] : items) {
        const std::string e = next.set(name, value);
        if (e.starts_with("unrecognized"))
            return e; // upstream returns at the first unknown gate
        if (!e.empty())
            errors.push_back(e);
    }
    if (errors.empty())
        errors = next.dependencyErrors();
    if (!errors.empty())
        return aggregate(errors);
    *this = std::move(next);
    return {};
}

std::vector<std::string> FeatureGates::dependencyErrors() const
{
    std::vector<std::string> out;
    for (size_t i = 0; i < kGateCount; ++i) {
        const GateSpec& g = kGates[i];
        if (!enabled(g.name))
            continue;
        std::string disabled;
        for (std::string_view dep : g.dependsOn)
            if (!dep.empty() && !enabled(dep)) {
                if (!disabled.empty())
                    disabled += ' ';
                disabled += dep;
            }
        if (!disabled.empty())
            out.push_back(std::string(g.name) + " is enabled, but depends on features that are disabled: ["
                + disabled + "]");
    }
    return out;
}

std::vector<std::string> FeatureGates::names() const
{
    std::vector<std::string> out;
    for (size_t i = 0; i < kGateCount; ++i)
        if (kGates[i].byVersion[size_t(m_version)] != State::Absent)
            out.emplace_back(kGates[i].name);
    return out;
}

std::optional<FeatureGates> FeatureGates::atVersion(KubernetesVersion v, std::string* error) const
{
    FeatureGates out(v);
    for (const auto& [name, value] : m_overrides)
        if (std::string e = out.set(name, value); !e.empty()) {
            if (error)
                *error = e;
            return std::nullopt;
        }
    return out;
}

bool workloadAwarePreemptionEnabled(const FeatureGates& gates)
{
    switch (gates.version()) {
    case KubernetesVersion::V1_35:
        return false;
    case KubernetesVersion::V1_36:
        return gates.enabled("GenericWorkload") && gates.enabled("WorkloadAwarePreemption");
    case KubernetesVersion::V1_37:
        return gates.enabled("GenericWorkload");
    }
    return false;
}

bool defaultPreemptionRespectsPodGroups(const FeatureGates& gates)
{
    // "the single-pod DefaultPreemption also respects victim PodGroups' priority and
    // disruptionMode" (Kubernetes v1.37 release blog, workload-aware scheduling).
    return gates.version() == KubernetesVersion::V1_37 && gates.enabled("GenericWorkload");
}

} // namespace drasim::api
