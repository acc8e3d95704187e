// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/scheduler_profile.h"

#include <vector>

#include "core/scheduler/cluster.h"

namespace drasim::scheduler {

const SchedulerProfile& presetProfile(ScoringPolicy policy)
{
    static const std::vector<SchedulerProfile> presets = [] {
        std::vector<SchedulerProfile> out;
        for (const ScoringProfile& s : scoringProfiles()) {
            SchedulerProfile p;
            p.scoring = s;
            out.push_back(std::move(p));
        }
        return out;
    }();
    return presets[size_t(policy)];
}

const SchedulerProfile* profileFor(const SchedulerOptions& options, const api::Pod& pod)
{
    return profileNamed(options, pod.spec.schedulerName);
}

const SchedulerProfile* profileNamed(const SchedulerOptions& options, const std::string& wanted)
{
    if (!options.profiles)
        return &presetProfile(options.scoring);
    for (const SchedulerProfile& p : *options.profiles)
        if (p.schedulerName == wanted || (wanted.empty() && p.schedulerName == kDefaultSchedulerName))
            return &p;
    return nullptr;
}

const SchedulerProfile& primaryProfile(const SchedulerOptions& options)
{
    if (!options.profiles || options.profiles->empty())
        return presetProfile(options.scoring);
    for (const SchedulerProfile& p : *options.profiles)
        if (p.schedulerName == kDefaultSchedulerName)
            return p;
    return options.profiles->front();
}

int32_t percentageOfNodesToScore(const SchedulerOptions& options, const SchedulerProfile& profile)
{
    return profile.percentageOfNodesToScore.value_or(options.percentageOfNodesToScore);
}

std::string noProfileMessage(const api::Pod& pod)
{
    // kube-scheduler's informers hand it only the pods whose schedulerName one of its profiles
    // has (pkg/scheduler/eventhandlers.go, responsibleForPod): the others wait for another
    // scheduler, and nothing in the pod's status says so.
    return "pod's schedulerName \"" + pod.spec.schedulerName
        + "\" is not a profile of the scheduler configuration: this scheduler never schedules it";
}

} // namespace drasim::scheduler
