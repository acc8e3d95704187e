// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/node_filters.h"

#include "core/allocator/node_match.h"

namespace drasim::scheduler {

NodeUsage usageFromNode(const api::Node& node)
{
    NodeUsage u;
    const auto& list = node.allocatable.empty() ? node.capacity : node.allocatable;
    u.allocatable = fromResourceList(list);
    auto pods = list.find("pods");
    if (pods != list.end())
        u.maxPods = pods->second.value();
    return u;
}

bool toleratesNodeTaint(const std::vector<api::Toleration>& tolerations, const api::Taint& taint)
{
    for (const auto& t : tolerations) {
        if (!t.effect.empty() && t.effect != taint.effect)
            continue;
        // An empty key with Exists tolerates everything.
        if (t.key.empty()) {
            if (t.op == "Exists")
                return true;
            continue;
        }
        if (t.key != taint.key)
            continue;
        if (t.op == "Exists" || t.value == taint.value)
            return true;
    }
    return false;
}

bool matchesRequiredNodeAffinity(const api::Pod& pod, const api::Node& node)
{
    for (const auto& [k, v] : pod.spec.nodeSelector) {
        auto it = node.meta.labels.find(k);
        if (it == node.meta.labels.end() || it->second != v)
            return false;
    }
    const auto& affinity = pod.spec.nodeAffinity;
    return !affinity || !affinity->required || allocator::matchesNodeSelector(*affinity->required, node);
}

namespace node_filters {

bool nodeUnschedulable(const api::Node& node, const api::PodSpec& spec, std::vector<std::string>& reasons)
{
    if (!node.unschedulable)
        return true;
    api::Taint t { "node.kubernetes.io/unschedulable", "", "NoSchedule", "" };
    if (toleratesNodeTaint(spec.tolerations, t))
        return true;
    reasons.push_back("node(s) were unschedulable");
    return false;
}

// TaintToleration: the first untolerated NoSchedule/NoExecute taint is reported.
bool taintToleration(const api::Node& node, const api::PodSpec& spec, std::vector<std::string>& reasons)
{
    for (const auto& t : node.taints) {
        if (t.effect != "NoSchedule" && t.effect != "NoExecute")
            continue;
        if (!toleratesNodeTaint(spec.tolerations, t)) {
            reasons.push_back("node(s) had untolerated taint {" + t.key + ": " + t.value + "}");
            return false;
        }
    }
    return true;
}

// NodeAffinity: spec.nodeSelector and required node affinity.
bool nodeAffinity(const api::Node& node, const api::Pod& pod, std::vector<std::string>& reasons)
{
    if (matchesRequiredNodeAffinity(pod, node))
        return true;
    reasons.push_back("node(s) didn't match Pod's node affinity/selector");
    return false;
}

bool nodeResourcesFit(const NodeUsage& usage, const PodRequests& req, std::vector<std::string>& reasons)
{
    const size_t before = reasons.size();
    if (usage.pods + 1 > usage.maxPods)
        reasons.push_back("Too many pods");
    const auto& r = req.requests;
    const auto& a = usage.allocatable;
    const auto& u = usage.requested;
    if (r.milliCpu > 0 && r.milliCpu > a.milliCpu - u.milliCpu)
        reasons.push_back("Insufficient cpu");
    if (r.memory > 0 && r.memory > a.memory - u.memory)
        reasons.push_back("Insufficient memory");
    if (r.ephemeralStorage > 0 && r.ephemeralStorage > a.ephemeralStorage - u.ephemeralStorage)
        reasons.push_back("Insufficient ephemeral-storage");
    for (const auto& [name, v] : r.scalar) {
        if (v <= 0)
            continue;
        auto ai = a.scalar.find(name);
        auto ui = u.scalar.find(name);
        int64_t have = (ai == a.scalar.end() ? 0 : ai->second) - (ui == u.scalar.end() ? 0 : ui->second);
        if (v > have)
            reasons.push_back("Insufficient " + name);
    }
    return reasons.size() == before;
}

} // namespace node_filters

bool passesNodeFilters(const api::Node& node, const NodeUsage& usage, const api::Pod& pod,
    const PodRequests& req, std::vector<std::string>& reasons, FilterSet filters)
{
    using F = FilterPlugin;
    auto on = [filters](F f) { return (filters & filterBit(f)) != 0; };
    const auto& spec = pod.spec;
    return (!on(F::NodeUnschedulable) || node_filters::nodeUnschedulable(node, spec, reasons))
        && (!on(F::TaintToleration) || node_filters::taintToleration(node, spec, reasons))
        && (!on(F::NodeAffinity) || node_filters::nodeAffinity(node, pod, reasons))
        && (!on(F::NodeResourcesFit) || node_filters::nodeResourcesFit(usage, req, reasons));
}

int64_t preferredAffinityScore(const api::Pod& pod, const api::Node& node)
{
    if (!pod.spec.nodeAffinity)
        return 0;
    int64_t sum = 0;
    for (const auto& p : pod.spec.nodeAffinity->preferred)
        if (allocator::matchesTerm(p.preference, node))
            sum += p.weight;
    return sum;
}

int64_t intolerablePreferNoSchedule(const api::Pod& pod, const api::Node& node)
{
    int64_t n = 0;
    for (const auto& t : node.taints) {
        if (t.effect != "PreferNoSchedule")
            continue;
        // Only tolerations with effect PreferNoSchedule or empty count (upstream filter).
        std::vector<api::Toleration> tols;
        for (const auto& tol : pod.spec.tolerations)
            if (tol.effect.empty() || tol.effect == "PreferNoSchedule")
                tols.push_back(tol);
        if (!toleratesNodeTaint(tols, t))
            ++n;
    }
    return n;
}

} // namespace drasim::scheduler
