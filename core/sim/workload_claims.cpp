// SPDX-License-Identifier: Apache-2.0
#include "core/sim/workload_claims.h"

#include <algorithm>

#include "core/gpushare/device_fragmentation.h"
#include "core/scheduler/claim_scoring.h"

namespace drasim::sim {

namespace {

const std::string kTemplateRef = "template:";
const std::string kClaimRef = "claim:";

std::string namespacedKey(const std::string& ns, const std::string& name)
{
    return (ns.empty() ? std::string("default") : ns) + "/" + name;
}

/// The claims and templates by their reference ("template:NS/NAME", "claim:NS/NAME").
std::map<std::string, const api::ResourceClaimSpec*> claimSpecs(const api::ObjectSet& objects)
{
    std::map<std::string, const api::ResourceClaimSpec*> specs;
    for (const api::ResourceClaimTemplate& t : objects.resourceClaimTemplates)
        specs.emplace(kTemplateRef + namespacedKey(t.meta.namespace_, t.meta.name), &t.spec);
    for (const api::ResourceClaim& c : objects.resourceClaims)
        specs.emplace(kClaimRef + namespacedKey(c.meta.namespace_, c.meta.name), &c.spec);
    return specs;
}

} // namespace

void countPodClaims(const workload::JobSpec& job, PodClaimRefs& into)
{
    const int64_t pods = job.kind == workload::kKindPipelineRun ? 1
        : job.kind == workload::kKindService                    ? std::max<int64_t>(job.parallelism, 1)
                                                                : std::max<int64_t>(job.completions, 1);
    for (const workload::TaskSpec& task : job.tasks) {
        if (!task.pod)
            continue;
        const std::string& ns
            = task.pod->meta.namespace_.empty() ? job.namespace_ : task.pod->meta.namespace_;
        std::vector<std::string> refs;
        for (const api::PodResourceClaim& c : task.pod->spec.resourceClaims) {
            if (c.resourceClaimTemplateName)
                refs.push_back(kTemplateRef + namespacedKey(ns, *c.resourceClaimTemplateName));
            else if (c.resourceClaimName)
                refs.push_back(kClaimRef + namespacedKey(ns, *c.resourceClaimName));
        }
        std::sort(refs.begin(), refs.end());
        into[std::move(refs)] += pods;
    }
}

std::map<gpushare::DeviceCounts, int64_t> podClaimShapes(
    const PodClaimRefs& pods, const api::ObjectSet& objects)
{
    std::map<std::string, const api::ResourceClaimSpec*> specs = claimSpecs(objects);
    std::map<gpushare::DeviceCounts, int64_t> shapes;
    for (const auto& [refs, count] : pods) {
        gpushare::DeviceCounts shape;
        for (const std::string& ref : refs)
            if (auto it = specs.find(ref); it != specs.end())
                scheduler::addClaimDevices(*it->second, shape);
        shapes[shape] += count;
    }
    return shapes;
}

std::map<gpushare::ClaimShape, int64_t> podClaimRequests(
    const PodClaimRefs& pods, const api::ObjectSet& objects)
{
    std::map<std::string, const api::ResourceClaimSpec*> specs = claimSpecs(objects);
    std::map<gpushare::ClaimShape, int64_t> shapes;
    for (const auto& [refs, count] : pods) {
        gpushare::ClaimShape shape;
        int group = 0;
        for (const std::string& ref : refs)
            if (auto it = specs.find(ref); it != specs.end())
                scheduler::addClaimRequests(*it->second, shape, group);
        gpushare::normalizeShape(shape);
        shapes[shape] += count;
    }
    return shapes;
}

bool publishesPartitionsOrShares(const api::ObjectSet& objects)
{
    for (const api::ResourceSlice& slice : objects.resourceSlices)
        for (const api::Device& d : slice.devices)
            if (!d.consumesCounters.empty() || d.allowMultipleAllocations.value_or(false))
                return true;
    return false;
}

std::shared_ptr<const gpushare::ClaimTarget> workloadClaimTarget(
    const PodClaimRefs& pods, const api::ObjectSet& objects)
{
    return gpushare::claimTargetOf(podClaimRequests(pods, objects), 95, publishesPartitionsOrShares(objects));
}

} // namespace drasim::sim
