// SPDX-License-Identifier: Apache-2.0
#include "ui/models/pod_replay.h"

#include <algorithm>

namespace drasim::ui {

namespace {

/// Pods running and pending as the events go by (the outline's and the peaks' count).
struct ReplayLiveCount
{
    std::map<std::string, bool> live; // pod → running (false: pending)
    int running = 0;

    int pending() const { return int(live.size()) - running; }
    void apply(const ReplayEvent& e)
    {
        if (!e.kind.empty())
            return; // an injected event moves no pod by itself
        auto it = live.find(e.pod);
        const bool wasRunning = it != live.end() && it->second;
        switch (e.type) {
        case sim::PodEventType::Created:
        case sim::PodEventType::Unschedulable:
            if (!wasRunning)
                live[e.pod] = false;
            break;
        case sim::PodEventType::Scheduled:
            running += wasRunning ? 0 : 1;
            live[e.pod] = true;
            break;
        case sim::PodEventType::Preempted:
            break; // it runs until its grace period is over
        default:
            running -= wasRunning ? 1 : 0;
            if (it != live.end())
                live.erase(it);
        }
    }
};

/// A member joins its PodGroup when it is created.
void joinGroup(ReplayState& s, const ReplayEvent& e)
{
    if (!e.group)
        return;
    ReplayGroup& g = s.groups[e.group->key];
    g.key = e.group->key;
    g.minCount = e.group->minCount;
    g.topologyKey = e.group->topologyKey;
    g.members.push_back(e.pod);
    s.podGroups[e.pod] = e.group->key;
}

/// An ended member leaves its PodGroup; a group without members is gone from the cluster's view.
void leaveGroup(ReplayState& s, const std::string& pod)
{
    const auto it = s.podGroups.find(pod);
    if (it == s.podGroups.end())
        return;
    const auto g = s.groups.find(it->second);
    s.podGroups.erase(it);
    if (g == s.groups.end())
        return;
    std::erase(g->second.members, pod);
    if (g->second.members.empty())
        s.groups.erase(g);
}

} // namespace

int ReplayState::heldOnNode(const std::string& node) const
{
    int n = 0;
    for (const auto& [key, holder] : holders)
        n += key.pool == node ? 1 : 0;
    return n;
}

ReplayEvent toReplayEvent(const sim::PodEvent& event)
{
    ReplayEvent out;
    out.time = event.time;
    out.type = event.type;
    out.pod = event.pod;
    out.workload = event.workload;
    out.node = event.node;
    out.message = event.message;
    for (const auto& held : event.devices)
        out.devices.emplace_back(held.claim, DeviceKey { held.driver, held.pool, held.device });
    out.group = event.group;
    return out;
}

void PodReplay::append(const sim::PodEvent& event)
{
    append(toReplayEvent(event));
}

void PodReplay::append(ReplayEvent event)
{
    // upper_bound keeps events of one time in the order they were recorded.
    auto at = std::upper_bound(m_events.begin(), m_events.end(), event.time,
        [](sim::SimTime t, const ReplayEvent& e) { return t < e.time; });
    m_events.insert(at, std::move(event));
}

void PodReplay::setConditions(std::shared_ptr<const sim::NodeConditions> conditions)
{
    m_conditions = std::move(conditions);
    if (!m_conditions)
        return;
    const sim::SimTime end = endTime();
    const auto& announced = m_conditions->events();
    // Backwards, each before the events of its time: those of one time keep their order.
    for (auto it = announced.rbegin(); it != announced.rend(); ++it) {
        if (it->time > end)
            continue;
        ReplayEvent e;
        e.time = it->time;
        e.kind = it->kind;
        e.node = it->subject;
        e.message = it->detail;
        auto at = std::lower_bound(m_events.begin(), m_events.end(), e.time,
            [](const ReplayEvent& x, sim::SimTime t) { return x.time < t; });
        m_events.insert(at, std::move(e));
    }
}

sim::SimTime PodReplay::endTime() const
{
    const sim::SimTime last = m_events.empty() ? 0 : m_events.back().time;
    return std::max(m_end, last);
}

size_t PodReplay::eventsUpTo(sim::SimTime t) const
{
    auto it = std::upper_bound(m_events.begin(), m_events.end(), t,
        [](sim::SimTime time, const ReplayEvent& e) { return time < e.time; });
    return size_t(it - m_events.begin());
}

sim::SimTime PodReplay::nextEventTime(sim::SimTime t) const
{
    const size_t i = eventsUpTo(t);
    return i < m_events.size() ? m_events[i].time : -1;
}

sim::SimTime PodReplay::previousEventTime(sim::SimTime t) const
{
    auto it = std::lower_bound(m_events.begin(), m_events.end(), t,
        [](const ReplayEvent& e, sim::SimTime time) { return e.time < time; });
    return it == m_events.begin() ? -1 : std::prev(it)->time;
}

ReplayState PodReplay::stateAt(sim::SimTime t) const
{
    ReplayState s;
    s.time = t;
    // Devices each running pod's binding allocated, to free them when the pod ends.
    std::map<std::string, std::vector<std::pair<std::string, DeviceKey>>> podDevices;
    const size_t n = eventsUpTo(t);
    if (m_conditions)
        s.nodes = m_conditions->at(t);
    for (size_t i = 0; i < n; ++i) {
        const ReplayEvent& e = m_events[i];
        if (!e.kind.empty())
            continue; // the node's pods have events of their own
        switch (e.type) {
        case sim::PodEventType::Created:
            s.pending[e.pod];
            joinGroup(s, e);
            break;
        case sim::PodEventType::Unschedulable:
            s.pending[e.pod] = e.message;
            break;
        case sim::PodEventType::Preempted:
            // Still running through its grace period; Evicted ends it.
            if (s.running.count(e.pod) > 0)
                s.preempted[e.pod] = e.message;
            break;
        case sim::PodEventType::Scheduled: {
            s.pending.erase(e.pod);
            if (auto old = s.running.find(e.pod); old != s.running.end())
                --s.podsOnNode[old->second];
            s.running[e.pod] = e.node;
            ++s.podsOnNode[e.node];
            for (const auto& [claim, key] : e.devices) {
                s.holders[key] = HeldBy { e.pod, claim };
                s.claimDevices[claim].push_back(key);
                s.claimPods[claim] = e.pod;
            }
            auto& mine = podDevices[e.pod];
            mine.insert(mine.end(), e.devices.begin(), e.devices.end());
            if (e.group && !e.group->domain.empty())
                if (auto g = s.podGroups.find(e.pod); g != s.podGroups.end())
                    s.groups[g->second].domain = e.group->domain;
            break;
        }
        case sim::PodEventType::Succeeded:
        case sim::PodEventType::Failed:
        case sim::PodEventType::Evicted: {
            ++(e.type == sim::PodEventType::Succeeded     ? s.succeeded
                    : e.type == sim::PodEventType::Failed ? s.failed
                                                          : s.evicted);
            s.pending.erase(e.pod);
            s.preempted.erase(e.pod);
            leaveGroup(s, e.pod);
            if (auto it = s.running.find(e.pod); it != s.running.end()) {
                if (--s.podsOnNode[it->second] == 0)
                    s.podsOnNode.erase(it->second);
                s.running.erase(it);
            }
            // The pod's claims are deallocated with it (claims made from its templates); a
            // device someone else took over in the meantime stays with its new holder.
            if (auto mine = podDevices.find(e.pod); mine != podDevices.end()) {
                for (const auto& [claim, key] : mine->second) {
                    auto h = s.holders.find(key);
                    if (h != s.holders.end() && h->second.pod == e.pod)
                        s.holders.erase(h);
                    s.claimDevices.erase(claim);
                    s.claimPods.erase(claim);
                }
                podDevices.erase(mine);
            }
            break;
        }
        }
    }
    return s;
}

PodReplay::Peaks PodReplay::peaks() const
{
    Peaks out;
    ReplayLiveCount count;
    for (size_t i = 0; i < m_events.size(); ++i) {
        count.apply(m_events[i]);
        if (i + 1 == m_events.size() || m_events[i + 1].time != m_events[i].time) {
            out.running = std::max(out.running, count.running);
            out.pending = std::max(out.pending, count.pending());
        }
    }
    return out;
}

size_t PodReplay::podEventCount() const
{
    return size_t(
        std::count_if(m_events.begin(), m_events.end(), [](const ReplayEvent& e) { return e.kind.empty(); }));
}

std::vector<PodReplay::Counts> PodReplay::countsOverTime(int points) const
{
    std::vector<Counts> out;
    if (points < 2)
        return out;
    const sim::SimTime end = endTime();
    ReplayLiveCount count;
    size_t next = 0;
    for (int i = 0; i < points; ++i) {
        const sim::SimTime t = end * i / (points - 1);
        for (; next < m_events.size() && m_events[next].time <= t; ++next)
            count.apply(m_events[next]);
        out.push_back(Counts { t, count.running, count.pending() });
    }
    return out;
}

} // namespace drasim::ui
