// SPDX-License-Identifier: Apache-2.0
#include "core/sim/sim_context.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/api/pod_defaults.h"

namespace drasim::sim {

JobKind jobKindOf(const workload::JobSpec& spec)
{
    if (spec.kind == workload::kKindService)
        return JobKind::Service;
    if (spec.kind == workload::kKindPipelineRun)
        return JobKind::PipelineRun;
    return JobKind::Job;
}

void appendDecimal(std::string& out, uint64_t n)
{
    char digits[20];
    const char* end = std::to_chars(std::begin(digits), std::end(digits), n).ptr;
    out.append(digits, size_t(end - digits));
}

SimTime backoffFor(int32_t attempts, SimTime initial, SimTime max)
{
    if (attempts <= 0)
        return 0;
    SimTime d = initial;
    for (int32_t i = 1; i < attempts && d < max; ++i)
        d *= 2;
    return std::min(d, max);
}

void SimContext::emitPodEvent(
    PodEventType type, const SimPod& pod, const std::string& message, const BindOutcome* bound)
{
    bool details = false;
    for (const auto* r : recorders)
        details = details || r->wantsPodEventDetails();
    // Every pod's every transition passes here: one event per thread is written over (its strings
    // and lists keep their storage), every field set or cleared each time. Recorders see it only
    // during onPodEvent and never call back into the engine.
    thread_local PodEvent e;
    e.time = now;
    e.type = type;
    e.pod = pod.key;
    e.serial = pod.serial;
    e.workload.clear();
    e.priorityClass.clear();
    e.job.clear();
    e.group.reset();
    if (pod.job != kNone) {
        const JobState& job = jobs[pod.job];
        e.workload = job.spec.workload;
        const auto& tmpl = job.spec.tasks[pod.task].pod;
        if (type == PodEventType::Created && tmpl)
            e.priorityClass = tmpl->spec.priorityClassName;
        if (details)
            e.job = job.spec.name;
        // Which PodGroup the pod belongs to, for views that show a group as one (the desktop).
        if (details && (type == PodEventType::Created || type == PodEventType::Scheduled)) {
            if (job.group)
                e.group = job.group->facts;
            else if (job.permitGang) // a 1.35 gang
                e.group = job.permitGang->facts;
        }
    }
    e.node.clear();
    e.message.clear();
    e.devices.clear();
    e.placements.clear();
    if (details) {
        e.node = pod.node;
        e.message = message;
        if (bound) {
            e.devices = bound->allocated;
            e.placements = bound->placements;
        }
    }
    for (auto* r : recorders)
        r->onPodEvent(e);
}

void SimContext::addNode(std::shared_ptr<const NodeSpec> spec, const std::string& pool)
{
    cluster.addNode(spec->node, spec->slices);
    metrics.addNode(std::move(spec), pool);
}

uint32_t SimContext::allocPod()
{
    if (!freePods.empty()) {
        uint32_t id = freePods.back();
        freePods.pop_back();
        return id;
    }
    pods.emplace_back();
    return uint32_t(pods.size() - 1);
}

void SimContext::releasePodSlot(uint32_t id)
{
    SimPod& p = pods[id];
    podByKey.erase(p.key);
    releaseBuiltPod(p);
    p = SimPod {};
    freePods.push_back(id);
}

api::Pod SimContext::buildPod(const SimPod& p) const
{
    api::Pod pod;
    buildPodInto(p, pod);
    return pod;
}

namespace {

const std::string kJobLabel = "drasim.dev/job";
const std::string kWorkloadLabel = "drasim.dev/workload";

/// The spec and annotations a Pod created from `tmpl` has once admission defaulted it
/// (pod_defaults.h); a default Pod's when there is no template.
void specFromTemplate(const api::PodTemplateSpec* tmpl, api::Pod& pod)
{
    if (!tmpl) {
        pod.meta.annotations.clear();
        pod.spec = api::PodSpec {};
        return;
    }
    pod.meta.annotations = tmpl->meta.annotations;
    pod.spec = tmpl->spec;
    api::defaultRequestsFromLimits(pod.spec);
}

/// Makes `out` the pod's labels: its template's, then its job's, then the job's name and
/// workload, a later one winning on the same key. Written over the labels already there: the
/// entries of keys both have keep their nodes and strings (a Pod built over one of the same
/// template mostly has the same keys), where copying the template's map and inserting the rest
/// allocated them all again. The sources are merged in key order as they are (both maps are
/// sorted, and kJobLabel sorts before kWorkloadLabel), not gathered and sorted.
void assignPodLabels(std::map<std::string, std::string>& out, const std::map<std::string, std::string>* tmpl,
    const workload::JobSpec& job)
{
    static const std::map<std::string, std::string> kNoLabels;
    const auto& fromTemplate = tmpl ? *tmpl : kNoLabels;
    const auto& fromJob = job.labels ? *job.labels : kNoLabels;
    auto ti = fromTemplate.begin();
    auto ji = fromJob.begin();
    const std::pair<const std::string*, const std::string*> fixed[]
        = { { &kJobLabel, &job.name }, { &kWorkloadLabel, &job.workload } };
    size_t fi = 0;
    auto it = out.begin();
    for (;;) {
        const std::string* key = nullptr;
        if (ti != fromTemplate.end())
            key = &ti->first;
        if (ji != fromJob.end() && (!key || ji->first < *key))
            key = &ji->first;
        if (fi < std::size(fixed) && (!key || *fixed[fi].first < *key))
            key = fixed[fi].first;
        if (!key)
            break;
        const std::string* value = nullptr; // the later source's, of those with this key
        if (ti != fromTemplate.end() && ti->first == *key)
            value = &(ti++)->second;
        if (ji != fromJob.end() && ji->first == *key)
            value = &(ji++)->second;
        if (fi < std::size(fixed) && *fixed[fi].first == *key)
            value = fixed[fi++].second;
        while (it != out.end() && it->first < *key)
            it = out.erase(it);
        if (it != out.end() && it->first == *key)
            (it++)->second = *value;
        else
            out.emplace_hint(it, *key, *value);
    }
    out.erase(it, out.end());
}

} // namespace

void SimContext::buildPodInto(const SimPod& p, api::Pod& pod) const
{
    std::shared_ptr<const api::PodTemplateSpec> unknown;
    buildPodInto(p, pod, unknown);
}

void SimContext::buildPodInto(
    const SimPod& p, api::Pod& pod, std::shared_ptr<const api::PodTemplateSpec>& from) const
{
    const JobState& job = jobs[p.job];
    const workload::TaskSpec& task = job.spec.tasks[p.task];
    // Assignments, not a fresh Pod: the strings, containers and map nodes of the Pod built here
    // before are reused. Fields this never sets stay as a default Pod has them.
    if (!task.pod || task.pod != from) {
        specFromTemplate(task.pod.get(), pod);
        from = task.pod;
    }
    pod.meta.name.assign(p.key, job.spec.namespace_.size() + 1);
    pod.meta.namespace_ = job.spec.namespace_;
    pod.meta.uid.assign("sim-", 4);
    appendDecimal(pod.meta.uid, p.serial);
    assignPodLabels(pod.meta.labels, task.pod ? &task.pod->meta.labels : nullptr, job.spec);
    pod.meta.ownerReferences.clear();
    if (const auto& owner = job.spec.owner) {
        const bool statefulSet = owner->kind == api::PodController::Kind::StatefulSet;
        pod.meta.ownerReferences.push_back(api::OwnerReference {
            "apps/v1", statefulSet ? "StatefulSet" : "ReplicaSet", owner->meta.name, "", true });
    }
    pod.spec.priority = task.priority;
    // The Job controller's pods name the PodGroup it made for them (spec.schedulingGroup), which
    // is how preemption finds a victim's group; other pods have their template's (set again here,
    // as a kept spec may hold the last pod's).
    if (job.group)
        pod.spec.schedulingGroup = job.spec.name;
    else
        pod.spec.schedulingGroup = task.pod ? task.pod->spec.schedulingGroup : std::nullopt;
    pod.phase = "Pending";
}

uint32_t SimContext::runningPod(const std::string& key) const
{
    auto it = podByKey.find(key);
    if (it == podByKey.end() || pods[it->second].state != PodState::Running)
        return kNone;
    return it->second;
}

} // namespace drasim::sim
