// SPDX-License-Identifier: Apache-2.0
#include "ui/models/allocated_groups.h"

#include <algorithm>
#include <map>
#include <string>

#include "core/api/object_key.h"

namespace drasim::ui {

namespace {

bool hasEnded(const api::Pod& pod)
{
    return pod.phase == "Succeeded" || pod.phase == "Failed";
}

/// The message of the condition the scheduler sets on a pod it preempts; nullptr when none.
const std::string* preemptionMessage(const api::Pod& pod)
{
    for (const auto& c : pod.conditions)
        if (c.type == "DisruptionTarget" && c.status == "True")
            return &c.message;
    return nullptr;
}

/// "key=value" of the node's label `key`; "" when the node or the label is not there.
std::string domainOf(const std::vector<api::Node>& nodes, const std::string& node, const std::string& key)
{
    for (const auto& n : nodes)
        if (n.meta.name == node) {
            const auto label = n.meta.labels.find(key);
            return label == n.meta.labels.end() ? std::string() : key + "=" + label->second;
        }
    return {};
}

} // namespace

void addAllocatedGroups(ReplayState& state, const std::vector<api::Pod>& pods,
    const std::vector<api::PodGroup>& groups, const std::vector<api::Node>& nodes)
{
    std::map<std::string, const api::PodGroup*> byKey;
    for (const auto& g : groups)
        byKey[api::objectKey(g.meta)] = &g;
    for (const auto& pod : pods) {
        if (const std::string* message = preemptionMessage(pod); message && !pod.spec.nodeName.empty())
            state.preempted[api::objectKey(pod.meta)] = *message;
        if (!pod.spec.schedulingGroup || hasEnded(pod))
            continue;
        const auto found = byKey.find(api::podGroupKeyOf(pod));
        if (found == byKey.end())
            continue; // a group that is not loaded: the pod waits alone (the loader warned)
        const api::PodGroup& loaded = *found->second;
        ReplayGroup& group = state.groups[found->first];
        if (group.key.empty()) {
            group.key = found->first;
            group.minCount
                = loaded.policy.scheduling.gang ? std::max(1, loaded.policy.scheduling.minCount) : 0;
            if (!loaded.policy.topologyKeys.empty())
                group.topologyKey = loaded.policy.topologyKeys.front();
        }
        const std::string key = api::objectKey(pod.meta);
        group.members.push_back(key);
        state.podGroups[key] = group.key;
        if (group.domain.empty() && !group.topologyKey.empty() && !pod.spec.nodeName.empty())
            group.domain = domainOf(nodes, pod.spec.nodeName, group.topologyKey);
    }
}

} // namespace drasim::ui
