// SPDX-License-Identifier: Apache-2.0
#include "core/sim/work_pace.h"

#include <algorithm>
#include <cmath>

#include "core/sim/device_ledger.h"
#include "core/sim/device_model_name.h"

namespace drasim::sim {

WorkPace::PodPace& WorkPace::record(uint32_t pod)
{
    if (pod >= m_pods.size())
        m_pods.resize(pod + 1);
    return m_pods[pod];
}

/// The pace the pod's own devices allow: the slowest of those whose model the table lists
/// (ties go to the model named first, so runs do not depend on claim order); 1 without one.
void WorkPace::measureOwn(uint32_t pod)
{
    const SimPod& p = m_ctx.pods[pod];
    const workload::SpeedTable& table = *m_ctx.jobs[p.job].spec.speed;
    double slowest = 0;
    std::string model;
    for (uint32_t index : m_ledger.devicesOf(p.claims)) {
        const api::Device* device = m_ctx.metrics.device(index);
        if (!device)
            continue;
        auto name = table.attribute.empty() ? deviceModelName(*device)
                                            : deviceAttributeText(*device, table.attribute);
        const double factor = name ? table.factor(*name) : 0;
        if (factor > 0 && (slowest == 0 || factor < slowest || (factor == slowest && *name < model))) {
            slowest = factor;
            model = *name;
        }
    }
    PodPace& r = record(pod);
    r.own = slowest > 0 ? slowest : 1;
    r.ownModel = model;
}

/// Members of a gang work in lockstep (work_pace.h).
bool WorkPace::lockstep(uint32_t job) const
{
    const workload::JobSpec& spec = m_ctx.jobs[job].spec;
    return spec.group && spec.group->gang && spec.kind != workload::kKindPipelineRun;
}

/// Every working member of the job goes at the pace of the slowest of them; the ones working
/// already (not in `starting`) and whose pace changes have their completion moved.
void WorkPace::paceGang(uint32_t job, const std::vector<uint32_t>& starting)
{
    std::vector<uint32_t> working;
    for (uint32_t id : m_ctx.jobs[job].pods)
        if (m_ctx.pods[id].workStart >= 0)
            working.push_back(id);
    double pace = 0;
    std::string model;
    for (uint32_t id : working) {
        const PodPace& r = record(id);
        if (pace == 0 || r.own < pace || (r.own == pace && r.ownModel < model)) {
            pace = r.own;
            model = r.ownModel;
        }
    }
    for (uint32_t id : working) {
        PodPace& r = record(id);
        const bool isStarting = std::find(starting.begin(), starting.end(), id) != starting.end();
        if (isStarting) {
            r.pace = pace;
            r.model = model;
        } else if (r.pace != pace) {
            rebase(id);
            m_pods[id].pace = pace;
            m_pods[id].model = model;
            schedule(id);
        }
    }
}

/// The pod's work so far is kept in workBase, and its run time so far is counted: it goes on
/// from now at another pace.
void WorkPace::rebase(uint32_t pod)
{
    SimPod& p = m_ctx.pods[pod];
    const PodPace& r = m_pods[pod];
    const double seconds = toSeconds(m_ctx.now - p.workStart);
    WorkloadStats& w = m_workloads[m_ctx.jobs[p.job].spec.workload];
    w.models[r.model].seconds += seconds;
    w.savedSeconds += seconds * (r.pace - 1);
    w.shown = w.shown || r.pace != 1;
    p.workBase += seconds * r.pace;
    p.workStart = m_ctx.now;
}

/// The pod completes once the rest of its duration's work is done at its pace.
void WorkPace::schedule(uint32_t pod)
{
    const SimPod& p = m_ctx.pods[pod];
    const double duration = m_ctx.jobs[p.job].spec.tasks[p.task].durationSeconds;
    const double pace = paceOf(pod);
    const uint32_t generation = pod < m_pods.size() ? ++m_pods[pod].generation : 0;
    const SimTime end = m_ctx.now + std::max<SimTime>(0, fromSeconds((duration - p.workBase) / pace));
    if (end <= m_ctx.options.duration)
        m_ctx.events.push(end, EventKind::PodComplete, pod, p.serial, generation);
}

/// A pod starts working at its pace: the statistics of its workload learn of it.
void WorkPace::count(uint32_t pod)
{
    const SimPod& p = m_ctx.pods[pod];
    const workload::SpeedTable& table = *m_ctx.jobs[p.job].spec.speed;
    const PodPace& r = m_pods[pod];
    WorkloadStats& w = m_workloads[m_ctx.jobs[p.job].spec.workload];
    w.reference = table.reference;
    ModelStats& m = w.models[r.model];
    m.factor = r.model.empty() ? 1 : table.factor(r.model);
    m.pods++;
    w.shown = w.shown || r.pace != 1;
}

void WorkPace::start(const std::vector<uint32_t>& pods)
{
    if (pods.empty())
        return;
    const uint32_t job = m_ctx.pods[pods.front()].job;
    if (!m_ctx.jobs[job].spec.speed) {
        for (uint32_t id : pods) {
            if (id < m_pods.size())
                m_pods[id] = PodPace { 1, {}, 1, {}, m_pods[id].generation };
            schedule(id);
        }
        return;
    }
    for (uint32_t id : pods) {
        measureOwn(id);
        m_pods[id].pace = m_pods[id].own;
        m_pods[id].model = m_pods[id].ownModel;
    }
    if (lockstep(job))
        paceGang(job, pods);
    for (uint32_t id : pods) {
        count(id);
        schedule(id);
    }
}

double WorkPace::stop(uint32_t pod, bool repacePeers)
{
    SimPod& p = m_ctx.pods[pod];
    const uint32_t job = p.job;
    if (pod >= m_pods.size() || !m_ctx.jobs[job].spec.speed) {
        const double progress = p.workBase + toSeconds(m_ctx.now - p.workStart);
        p.workStart = -1;
        return progress;
    }
    rebase(pod);
    p.workStart = -1;
    if (repacePeers && lockstep(job))
        paceGang(job, {});
    return p.workBase;
}

bool WorkPace::current(uint32_t pod, uint32_t generation) const
{
    return generation == (pod < m_pods.size() ? m_pods[pod].generation : 0);
}

void WorkPace::finish()
{
    for (uint32_t id = 0; id < m_pods.size(); ++id) {
        const SimPod& p = m_ctx.pods[id];
        if (p.state == PodState::Running && p.workStart >= 0 && m_ctx.jobs[p.job].spec.speed)
            rebase(id);
    }
}

std::vector<SpeedSummary> WorkPace::summary() const
{
    std::vector<SpeedSummary> out;
    for (const auto& [name, w] : m_workloads) {
        if (!w.shown)
            continue;
        SpeedSummary s;
        s.workload = name;
        s.reference = w.reference;
        s.savedPodHours = w.savedSeconds / 3600;
        for (const auto& [model, m] : w.models)
            s.models.push_back(SpeedSummary::Model { model, m.factor, m.pods, m.seconds / 3600 });
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace drasim::sim
