// SPDX-License-Identifier: Apache-2.0
#include "core/api/disruption_budget.h"

#include <algorithm>
#include <set>
#include <utility>

namespace drasim::api {

namespace {

const Labels kPdbNoLabels;
// intstr.GetScaledValueFromIntOrPercent's error for a string without '%'.
constexpr const char* kPdbNotAPercentage
    = "invalid value for IntOrString: invalid type: string is not a percentage";

const PodController* pdbFindController(const std::vector<PodController>& controllers, std::string_view ns,
    std::string_view kind, std::string_view name)
{
    for (const PodController& c : controllers) {
        const std::string_view cns
            = c.meta.namespace_.empty() ? "default" : std::string_view(c.meta.namespace_);
        if (cns == ns && c.meta.name == name && podControllerKindName(c.kind) == kind)
            return &c;
    }
    return nullptr;
}

/// getExpectedScale: the sum of the scales of the distinct controllers of `pods`. Pods without a
/// controller are skipped (unmanaged: upstream only warns about them); a controller without a
/// scale (a Job, or one that does not exist) makes the computation fail.
int32_t pdbExpectedScale(
    const std::vector<const PdbPod*>& pods, const std::vector<PodController>& controllers, std::string& error)
{
    std::set<std::pair<std::string_view, std::string_view>> seen;
    int64_t total = 0;
    for (const PdbPod* pod : pods) {
        if (pod->ownerKind.empty() || !seen.emplace(pod->ownerKind, pod->ownerName).second)
            continue;
        const PodController* c
            = pdbFindController(controllers, pod->namespace_, pod->ownerKind, pod->ownerName);
        // The finders know ReplicaSets (through their Deployment), Deployments, StatefulSets,
        // ReplicationControllers and anything with a scale subresource; a Job has none.
        if (!c || c->kind == PodController::Kind::Job) {
            error = "found no controllers for pod \"" + std::string(pod->name) + "\"";
            return 0;
        }
        total += c->replicas;
    }
    return int32_t(total);
}

/// getExpectedPodCount: expectedCount and desiredHealthy. An integer minAvailable counts the
/// matching pods; a percentage, and any maxUnavailable, scale against the controllers' replicas.
void pdbExpectedPodCount(const PodDisruptionBudget& pdb, const std::vector<const PdbPod*>& pods,
    const std::vector<PodController>& controllers, DisruptionBudgetState& s)
{
    if (pdb.maxUnavailable) {
        s.expectedPods = pdbExpectedScale(pods, controllers, s.error);
        const auto maxUnavailable = scaledValue(*pdb.maxUnavailable, s.expectedPods);
        if (!s.error.empty())
            return;
        if (!maxUnavailable) {
            s.error = kPdbNotAPercentage;
            return;
        }
        s.desiredHealthy = std::max(0, s.expectedPods - *maxUnavailable);
    } else if (pdb.minAvailable && !pdb.minAvailable->isString) {
        s.desiredHealthy = pdb.minAvailable->intValue;
        s.expectedPods = int32_t(pods.size());
    } else if (pdb.minAvailable) {
        s.expectedPods = pdbExpectedScale(pods, controllers, s.error);
        const auto minAvailable = scaledValue(*pdb.minAvailable, s.expectedPods);
        if (s.error.empty() && !minAvailable)
            s.error = kPdbNotAPercentage;
        else if (s.error.empty())
            s.desiredHealthy = *minAvailable;
    }
}

DisruptionBudgetState pdbState(const PodDisruptionBudget& pdb, const std::vector<PdbPod>& pods,
    const std::vector<PodController>& controllers)
{
    std::vector<const PdbPod*> covered;
    for (const PdbPod& pod : pods)
        if (selects(pdb, pod.namespace_, pod.labels ? *pod.labels : kPdbNoLabels))
            covered.push_back(&pod);
    DisruptionBudgetState s;
    pdbExpectedPodCount(pdb, covered, controllers, s);
    if (!s.error.empty())
        return DisruptionBudgetState { 0, 0, 0, 0, s.error }; // failSafe: no disruption allowed
    s.currentHealthy
        = int32_t(std::count_if(covered.begin(), covered.end(), [](const PdbPod* p) { return p->healthy; }));
    // updatePdbStatus: "We require expectedCount to be > 0 so that PDBs which currently match no
    // pods are in a safe state when their first pods appear".
    s.disruptionsAllowed = s.expectedPods <= 0 ? 0 : std::max(0, s.currentHealthy - s.desiredHealthy);
    return s;
}

} // namespace

bool selects(const PodDisruptionBudget& pdb, std::string_view namespace_, const Labels& labels)
{
    const std::string_view ns
        = pdb.meta.namespace_.empty() ? "default" : std::string_view(pdb.meta.namespace_);
    // LabelSelectorAsSelector: nil → labels.Nothing(), {} → labels.Everything().
    return ns == namespace_ && pdb.selector && pdb.selector->matches(labels);
}

std::optional<int32_t> scaledValue(const IntOrString& v, int32_t total)
{
    if (!v.isString)
        return v.intValue;
    const std::string& s = v.stringValue;
    if (s.size() < 2 || s.back() != '%' || s.size() > 11)
        return std::nullopt;
    int64_t percent = 0;
    for (size_t i = 0; i + 1 < s.size(); ++i) {
        if (s[i] < '0' || s[i] > '9')
            return std::nullopt;
        percent = percent * 10 + (s[i] - '0');
    }
    // math.Ceil(float64(v) * float64(total) / 100), in integers.
    const int64_t scaled = percent * int64_t(total);
    return int32_t(scaled >= 0 ? (scaled + 99) / 100 : scaled / 100);
}

std::vector<DisruptionBudgetState> disruptionBudgetStates(const std::vector<PodDisruptionBudget>& pdbs,
    const std::vector<PdbPod>& pods, const std::vector<PodController>& controllers)
{
    std::vector<DisruptionBudgetState> out;
    out.reserve(pdbs.size());
    for (const PodDisruptionBudget& pdb : pdbs)
        out.push_back(pdbState(pdb, pods, controllers));
    return out;
}

std::vector<int32_t> disruptionsAllowed(const std::vector<PodDisruptionBudget>& pdbs,
    const std::vector<PdbPod>& pods, const std::vector<PodController>& controllers)
{
    std::vector<int32_t> out;
    out.reserve(pdbs.size());
    for (const DisruptionBudgetState& s : disruptionBudgetStates(pdbs, pods, controllers))
        out.push_back(s.disruptionsAllowed);
    return out;
}

} // namespace drasim::api
