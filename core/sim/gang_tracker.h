// SPDX-License-Identifier: Apache-2.0
#pragma once

// Distributed jobs (a workload's `scheduling:` makes each job's pods one PodGroup) do no work
// until minCount of their pods run: a training job's workers wait for their peers. This tracker
// decides when each member's work starts and records what waiting cost: the time from arrival to
// the start, and the device-hours held by members of jobs that had not started. Under gang
// scheduling the members bind together and nothing is held idle; bound one by one, the early
// members hold their devices doing nothing, and so do the members of a Kubernetes 1.35 gang that
// wait at Permit for their peers (assumed, unbound).

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/sim/percentiles.h"
#include "core/sim/sim_time.h"

namespace drasim::sim {

/// The gang part of a run summary (present when a workload has `scheduling:`).
struct GangSummary
{
    int64_t jobs = 0; ///< grouped jobs that arrived
    int64_t started = 0; ///< jobs that reached minCount running members
    /// Arrival to the start, per job; a job that never started counts its wait (censored).
    DistributionSummary secondsToStart;
    double idleDeviceHours = 0; ///< devices held by members of jobs not started yet
    uint64_t groupCycles = 0; ///< PodGroup scheduling cycles run (gates on; counted by the loop)
};

class GangTracker
{
public:
    void jobArrived(uint32_t job, SimTime now, int32_t minCount);
    /// A member was bound holding `devices` devices. Returns the members whose work starts now:
    /// none while fewer than minCount run, all bound members when this one completes the gang,
    /// just this one once the job has started.
    std::vector<uint32_t> memberBound(uint32_t job, uint32_t pod, SimTime now, int32_t devices);
    /// The gang's minCount changed (PodGroupMinCount). Returns the members whose work starts now:
    /// all bound members when a smaller minCount completes a gang that had not started.
    std::vector<uint32_t> setMinCount(uint32_t job, int32_t minCount, SimTime now);
    /// A 1.35 gang's member held `devices` devices at Permit, unbound, from `since` to `until`
    /// (scheduling_loop_permit.h): idle device time as well.
    void heldAtPermit(uint32_t job, SimTime since, SimTime until, int32_t devices);
    /// A member ended (any reason) at `now`; the idle time of a member that never worked counts.
    void memberEnded(uint32_t job, uint32_t pod, SimTime now);
    void jobEnded(uint32_t job, SimTime now);
    bool tracks(uint32_t job) const { return m_jobs.count(job) != 0; }
    /// Closes the idle time of members still waiting at `end` and returns the summary.
    GangSummary finish(SimTime end);

private:
    struct Waiting
    {
        uint32_t pod;
        SimTime since;
        int32_t devices;
    };
    struct Job
    {
        SimTime arrival = 0;
        int32_t minCount = 1;
        int32_t running = 0;
        bool started = false;
        std::vector<Waiting> waiting;
    };
    void idle(const Waiting& w, SimTime until);
    /// The job's gang is complete now: its waiting members start.
    std::vector<uint32_t> start(Job& j, SimTime now);

    std::unordered_map<uint32_t, Job> m_jobs;
    std::vector<double> m_toStart;
    std::vector<double> m_neverStarted; ///< waits of jobs that ended before they started
    double m_idleDeviceSeconds = 0;
    GangSummary m_summary;
};

} // namespace drasim::sim
