// SPDX-License-Identifier: Apache-2.0
#include "core/sim/gang_tracker.h"

#include <algorithm>

namespace drasim::sim {

void GangTracker::jobArrived(uint32_t job, SimTime now, int32_t minCount)
{
    Job j;
    j.arrival = now;
    j.minCount = std::max(1, minCount);
    m_jobs[job] = std::move(j);
    ++m_summary.jobs;
}

void GangTracker::treeMemberAdded(uint32_t unit, SimTime now, std::shared_ptr<const TreeQuorum> quorum)
{
    auto it = m_jobs.find(unit);
    if (it == m_jobs.end()) {
        jobArrived(unit, now, 1);
        it = m_jobs.find(unit);
        it->second.tree = std::move(quorum);
    }
    ++it->second.members;
}

void GangTracker::treeMemberGone(uint32_t unit, SimTime now)
{
    auto it = m_jobs.find(unit);
    if (it != m_jobs.end() && --it->second.members <= 0)
        jobEnded(unit, now);
}

std::vector<uint32_t> GangTracker::memberBound(
    uint32_t job, uint32_t pod, SimTime now, int32_t devices, const std::string& group)
{
    auto it = m_jobs.find(job);
    if (it == m_jobs.end())
        return { pod };
    Job& j = it->second;
    ++j.running;
    if (j.tree)
        ++j.boundByGroup[group];
    if (j.started)
        return { pod };
    j.waiting.push_back(Waiting { pod, now, devices });
    if (!j.complete())
        return {};
    return start(j, now);
}

std::vector<uint32_t> GangTracker::setMinCount(uint32_t job, int32_t minCount, SimTime now)
{
    auto it = m_jobs.find(job);
    if (it == m_jobs.end())
        return {};
    Job& j = it->second;
    j.minCount = std::max(1, minCount);
    if (j.started || j.running < j.minCount)
        return {};
    return start(j, now);
}

std::vector<uint32_t> GangTracker::start(Job& j, SimTime now)
{
    j.started = true;
    ++m_summary.started;
    m_toStart.push_back(toSeconds(now - j.arrival));
    std::vector<uint32_t> starting;
    for (const auto& w : j.waiting) {
        idle(w, now);
        starting.push_back(w.pod);
    }
    j.waiting.clear();
    return starting;
}

void GangTracker::memberEnded(uint32_t job, uint32_t pod, SimTime now, const std::string& group)
{
    auto it = m_jobs.find(job);
    if (it == m_jobs.end())
        return;
    Job& j = it->second;
    if (j.tree)
        --j.boundByGroup[group];
    auto w = std::find_if(j.waiting.begin(), j.waiting.end(), [&](const Waiting& x) { return x.pod == pod; });
    if (w != j.waiting.end()) {
        idle(*w, now);
        j.waiting.erase(w);
        --j.running;
    } else if (j.started) {
        --j.running;
    }
}

void GangTracker::jobEnded(uint32_t job, SimTime now)
{
    auto it = m_jobs.find(job);
    if (it == m_jobs.end())
        return;
    for (const auto& w : it->second.waiting)
        idle(w, now);
    if (!it->second.started)
        m_neverStarted.push_back(toSeconds(now - it->second.arrival));
    m_toComplete.push_back(toSeconds(now - it->second.arrival));
    m_jobs.erase(it);
}

void GangTracker::heldAtPermit(uint32_t job, SimTime since, SimTime until, int32_t devices)
{
    if (tracks(job))
        idle(Waiting { 0, since, devices }, until);
}

int64_t GangTracker::notStarted() const
{
    return std::count_if(m_jobs.begin(), m_jobs.end(), [](const auto& kv) { return !kv.second.started; });
}

int64_t GangTracker::idleDevices() const
{
    int64_t devices = 0;
    for (const auto& [id, j] : m_jobs)
        for (const auto& w : j.waiting)
            devices += w.devices;
    return devices;
}

void GangTracker::idle(const Waiting& w, SimTime until)
{
    m_idleDeviceSeconds += toSeconds(until - w.since) * double(w.devices);
}

GangSummary GangTracker::finish(SimTime end)
{
    std::vector<double> neverStarted = m_neverStarted;
    std::vector<double> running;
    for (auto& [id, j] : m_jobs) {
        for (const auto& w : j.waiting)
            idle(w, end);
        j.waiting.clear();
        if (!j.started)
            neverStarted.push_back(toSeconds(end - j.arrival)); // its wait so far: a lower bound
        running.push_back(toSeconds(end - j.arrival));
    }
    GangSummary out = m_summary;
    out.secondsToStart = summarizeCensored(m_toStart, std::move(neverStarted));
    out.secondsToComplete = summarizeCensored(m_toComplete, std::move(running));
    out.idleDeviceHours = m_idleDeviceSeconds / 3600.0;
    return out;
}

} // namespace drasim::sim
