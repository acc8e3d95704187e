// SPDX-License-Identifier: Apache-2.0
#include "core/planner/service_level_recorder.h"

#include <algorithm>

#include "core/sim/percentiles.h"
#include "core/sim/run_summary.h"

namespace drasim::planner {

ServiceLevelRecorder::ServiceLevelRecorder(const std::vector<ServiceLevel>& levels, CancelToken* stop,
    const CancelToken* user, const CancelToken* abandon)
    : m_levels(levels)
    , m_stop(stop)
    , m_user(user)
    , m_abandon(abandon)
{
    m_scopes[{}];
    for (const auto& l : m_levels)
        if (l.metric != Metric::Placement)
            m_scopes[{ l.workload, l.priorityClass }];
    for (const auto& l : m_levels)
        m_levelScopes.push_back(
            l.metric == Metric::Placement ? nullptr : &m_scopes.at({ l.workload, l.priorityClass }));
}

const std::vector<ServiceLevelRecorder::Scope*>& ServiceLevelRecorder::scopesOf(
    const std::string& workload, const std::string& priorityClass)
{
    if (m_lastScopes && workload == m_lastWorkload && priorityClass == m_lastPriorityClass)
        return *m_lastScopes;
    auto [it, fresh] = m_scopesOfPods.try_emplace({ workload, priorityClass });
    if (fresh)
        for (auto& [key, scope] : m_scopes)
            if ((key.first.empty() || key.first == workload)
                && (key.second.empty() || key.second == priorityClass))
                it->second.push_back(&scope);
    m_lastScopes = &it->second;
    m_lastWorkload = workload;
    m_lastPriorityClass = priorityClass;
    return it->second;
}

void ServiceLevelRecorder::close(Pod& pod, sim::SimTime now, bool bound)
{
    pod.open = false;
    pod.bound = bound;
    const double waited = sim::toSeconds(now - pod.created);
    for (Scope* s : *pod.scopes) {
        s->waits.push_back(waited);
        s->maxClosedWait = std::max(s->maxClosedWait, waited);
        if (!bound)
            s->neverBound++;
    }
}

void ServiceLevelRecorder::addToScope(Scope& scope, uint64_t serial)
{
    // Pods are created in the order of time, so this is the end unless events came out of order.
    auto later = [this](uint64_t a, uint64_t b) {
        const Pod& x = m_pods[a];
        const Pod& y = m_pods[b];
        return std::pair(x.created, x.ordinal) < std::pair(y.created, y.ordinal);
    };
    if (scope.byAge.empty() || !later(serial, scope.byAge.back()))
        scope.byAge.push_back(serial);
    else
        scope.byAge.insert(std::upper_bound(scope.byAge.begin() + std::ptrdiff_t(scope.firstOpen),
                               scope.byAge.end(), serial, later),
            serial);
}

const ServiceLevelRecorder::Pod* ServiceLevelRecorder::oldestOpen(Scope& scope)
{
    while (scope.firstOpen < scope.byAge.size() && !m_pods[scope.byAge[scope.firstOpen]].open)
        ++scope.firstOpen;
    return scope.firstOpen < scope.byAge.size() ? &m_pods[scope.byAge[scope.firstOpen]] : nullptr;
}

void ServiceLevelRecorder::onPodEvent(const sim::PodEvent& e)
{
    using sim::PodEventType;
    if (e.serial >= m_pods.size())
        m_pods.resize(std::max<size_t>(e.serial + 1, m_pods.size() * 2));
    Pod& pod = m_pods[e.serial];
    if (e.type == PodEventType::Created) {
        if (!pod.known) {
            pod.known = true;
            pod.created = e.time;
            pod.ordinal = m_created++;
            pod.scopes = &scopesOf(e.workload, e.priorityClass);
            for (Scope* s : *pod.scopes) {
                s->created++;
                addToScope(*s, e.serial);
            }
        }
    } else if (pod.known && pod.open) {
        if (e.type == PodEventType::Scheduled)
            close(pod, e.time, true);
        else if (e.type == PodEventType::Failed || e.type == PodEventType::Evicted
            || e.type == PodEventType::Succeeded)
            close(pod, e.time, false); // deleted while still pending
    }
    checkPending(e.time);
}

void ServiceLevelRecorder::onSample(const sim::MetricSample& sample)
{
    checkPending(sample.time);
}

void ServiceLevelRecorder::checkPending(sim::SimTime now)
{
    if (m_stop && ((m_user && m_user->cancelled()) || (m_abandon && m_abandon->cancelled())))
        m_stop->cancel();
    if (m_stoppedEarly || !m_stop)
        return;
    for (size_t i = 0; i < m_levels.size(); ++i) {
        const ServiceLevel& l = m_levels[i];
        if (l.metric != Metric::Pending)
            continue;
        Scope& s = *m_levelScopes[i];
        // A pod bound (or deleted) after waiting too long decides the level as surely as one
        // still waiting.
        double age = s.maxClosedWait;
        if (const Pod* oldest = oldestOpen(s))
            age = std::max(age, sim::toSeconds(now - oldest->created));
        if (age > l.limit) {
            m_stoppedEarly = true;
            m_stoppedAt = now;
            m_pendingMaxSeen = age;
            m_stop->cancel();
            return;
        }
    }
}

void ServiceLevelRecorder::onRunFinished(const sim::RunSummary& summary)
{
    const sim::SimTime end = summary.simulatedTime;
    // Pods still pending count their age at the end as their wait, and as never scheduled.
    for (auto& [name, scope] : m_scopes)
        for (size_t k = scope.firstOpen; k < scope.byAge.size(); ++k)
            if (const Pod& pod = m_pods[scope.byAge[k]]; pod.open) {
                scope.waits.push_back(sim::toSeconds(end - pod.created));
                scope.neverBound++;
            }

    m_values.clear();
    for (const auto& l : m_levels) {
        double v = 0;
        auto it = m_scopes.find(l.metric == Metric::Placement ? std::pair<std::string, std::string> {}
                                                              : std::pair { l.workload, l.priorityClass });
        Scope& s = it->second;
        switch (l.metric) {
        case Metric::Wait: {
            std::sort(s.waits.begin(), s.waits.end());
            v = sim::nearestRankPercentile(s.waits, l.percentile);
            break;
        }
        case Metric::Pending:
            v = s.waits.empty() ? 0.0 : *std::max_element(s.waits.begin(), s.waits.end());
            if (m_stoppedEarly)
                v = std::max(v, m_pendingMaxSeen);
            break;
        case Metric::NeverScheduled:
            v = s.created == 0 ? 0.0 : double(s.neverBound) / double(s.created);
            break;
        case Metric::Placement: {
            int64_t claims = 0, within = 0;
            const int bound = distanceRank(l.within);
            for (const auto& kv : summary.placement) {
                const int64_t n = int64_t(kv.value);
                claims += n;
                const int rank = distanceRank(kv.key);
                if (rank >= 0 && rank <= bound)
                    within += n;
            }
            v = claims == 0 ? 1.0 : double(within) / double(claims);
            break;
        }
        }
        m_values.push_back(v);
    }
}

} // namespace drasim::planner
